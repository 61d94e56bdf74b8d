// The contract between the workload controller and its traits: how the objects rendered for a ZookeeperWorkload are
// named and labelled, which ZooKeeper server each pod runs, and where it is reached. Every controller and every test
// reads these facts here.
import type { ClientTlsMode } from './tls.js';

/** Ports every member listens on, on its own pod IP; the plain and the secure client port as spec.tls.client says. */
export const ZOOKEEPER_PORTS = { client: 2181, secureClient: 2281, quorum: 2888, election: 3888 } as const;

/** Whether members open the plain client port: all but TLS-only ensembles. */
export function hasPlainClientPort(tls: { client: ClientTlsMode }): boolean {
  return tls.client !== 'Only';
}

/**
 * Where controllers, probes and start.sh ask a member four-letter words: the plain client port when it has one, else
 * the secure port over TLS (trusting the CA in the member TLS Secret).
 */
export function fourLetterWordEndpoint(tls: { client: ClientTlsMode }): { port: number; secure: boolean } {
  return hasPlainClientPort(tls) ? { port: ZOOKEEPER_PORTS.client, secure: false } : { port: ZOOKEEPER_PORTS.secureClient, secure: true };
}

export const MANAGED_BY_LABEL = 'app.kubernetes.io/managed-by';
export const MANAGED_BY = 'zk-oam';
/** The label whose value is the workload's name, on every object rendered for it. */
export const INSTANCE_LABEL = 'app.kubernetes.io/instance';
const NAME_LABEL = 'app.kubernetes.io/name';
const COMPONENT_LABEL = 'app.kubernetes.io/component';
const MEMBER_COMPONENT = 'server';

/** Selects every object zk-oam renders, across workloads (informers of the controllers). */
export const MANAGED_SELECTOR = `${MANAGED_BY_LABEL}=${MANAGED_BY}`;
/**
 * Selects every member pod and member data volume, across workloads: the labels both carry (volumes get only the
 * StatefulSet's selector labels from its claim template, which cannot change once created).
 */
export const MEMBER_SELECTOR = `${NAME_LABEL}=zookeeper,${COMPONENT_LABEL}=${MEMBER_COMPONENT}`;

/** The labels that select one workload's pods; stable for the life of the StatefulSet (its selector is immutable). */
export function memberSelectorLabels(workload: string): Record<string, string> {
  return { [NAME_LABEL]: 'zookeeper', [INSTANCE_LABEL]: workload, [COMPONENT_LABEL]: MEMBER_COMPONENT };
}

/** The workload an object was rendered for, by its instance label; undefined for an object without one. */
export function workloadOfLabels(labels: Readonly<Record<string, string>> | undefined): string | undefined {
  return labels?.[INSTANCE_LABEL];
}

/** Labels of every object rendered for a workload. */
export function workloadLabels(workload: string): Record<string, string> {
  return { ...memberSelectorLabels(workload), [MANAGED_BY_LABEL]: MANAGED_BY };
}

/** The label selector, as a string, of one workload's member pods and volumes. */
export function memberSelectorOf(workload: string): string {
  return `${MEMBER_SELECTOR},${INSTANCE_LABEL}=${workload}`;
}

/** Suffixes appended to the workload's name to name what is rendered for it; the longest bounds the name. */
export const DERIVED_NAME_SUFFIXES = {
  configMap: '-config',
  headlessService: '-headless',
  clientService: '-client',
  superuserSecret: '-superuser',
  tlsSecret: '-tls',
  tlsCaSecret: '-tls-ca',
  saslSecret: '-sasl',
} as const;

/** Service names and label values are DNS labels: at most 63 characters. */
const DNS_LABEL_MAX = 63;
/** The StatefulSet controller labels each pod `controller-revision-hash: <statefulSet>-<hash of up to 10 characters>`. */
const REVISION_HASH_SUFFIX_MAX = 11;
/** Pods are `<statefulSet>-<ordinal>`, and ordinals stay below MAX_MYID (three digits). */
const ORDINAL_SUFFIX_MAX = 4;

/** The longest workload name whose derived names are all valid; the CRD refuses longer ones. */
export const MAX_WORKLOAD_NAME_LENGTH = Math.min(
  ...[DERIVED_NAME_SUFFIXES.headlessService, DERIVED_NAME_SUFFIXES.clientService].map((suffix) => DNS_LABEL_MAX - suffix.length),
  DNS_LABEL_MAX - REVISION_HASH_SUFFIX_MAX,
  DNS_LABEL_MAX - ORDINAL_SUFFIX_MAX,
);

/** The StatefulSet of a workload's members: named after the workload, so a trait finds it from its workloadRef alone. */
export function statefulSetNameOf(workload: string): string {
  return workload;
}

/** The workload a StatefulSet of ours was rendered for: the inverse of statefulSetNameOf. */
export function workloadOfStatefulSet(statefulSet: string): string {
  return statefulSet;
}

/** Names of the objects rendered for a workload called `workload`. */
export function derivedNames(workload: string): {
  statefulSet: string;
  configMap: string;
  headlessService: string;
  clientService: string;
  podDisruptionBudget: string;
  defaultSuperuserSecret: string;
  serviceMonitor: string;
  prometheusRule: string;
  tlsSecret: string;
  defaultTlsCaSecret: string;
  saslSecret: string;
} {
  return {
    statefulSet: statefulSetNameOf(workload),
    configMap: `${workload}${DERIVED_NAME_SUFFIXES.configMap}`,
    headlessService: `${workload}${DERIVED_NAME_SUFFIXES.headlessService}`,
    clientService: `${workload}${DERIVED_NAME_SUFFIXES.clientService}`,
    podDisruptionBudget: workload,
    defaultSuperuserSecret: `${workload}${DERIVED_NAME_SUFFIXES.superuserSecret}`,
    serviceMonitor: workload,
    prometheusRule: workload,
    tlsSecret: `${workload}${DERIVED_NAME_SUFFIXES.tlsSecret}`,
    defaultTlsCaSecret: `${workload}${DERIVED_NAME_SUFFIXES.tlsCaSecret}`,
    saslSecret: `${workload}${DERIVED_NAME_SUFFIXES.saslSecret}`,
  };
}

/** The Secret holding the superuser password reconfig authenticates with: the user's, or the one the workload renders. */
export function superuserSecretName(workload: { metadata: { name: string }; spec: { superuserSecretRef?: { name: string } | undefined } }): string {
  return workload.spec.superuserSecretRef?.name ?? derivedNames(workload.metadata.name).defaultSuperuserSecret;
}

/** The Secret holding the CA that signs the member certificate: the user's, or the one the workload controller keeps. */
export function tlsCaSecretName(workload: {
  metadata: { name: string };
  spec: { tls?: { certificates?: { caSecretRef?: { name: string } | undefined } | undefined } | undefined };
}): string {
  return workload.spec.tls?.certificates?.caSecretRef?.name ?? derivedNames(workload.metadata.name).defaultTlsCaSecret;
}

/**
 * Keys of the member TLS Secret `<name>-tls`: the member certificate and its PEM key, and the CA that signed it (what
 * clients and controllers trust). cert-manager writes the same layout, so both ways of issuing feed the members alike.
 */
export const TLS_SECRET_KEYS = { certificate: 'tls.crt', privateKey: 'tls.key', ca: 'ca.crt' } as const;

/** Keys of the superuser Secret: the password (the operator's admin client) and its digest (the servers' superDigest). */
export const SUPERUSER_SECRET_KEYS = { password: 'password', digest: 'digest' } as const;

/** Where the password reconfig authenticates with is kept: the superuser Secret of the workload, key `password`. */
export function superuserPasswordRef(workload: Parameters<typeof superuserSecretName>[0] & { metadata: { namespace?: string | undefined } }): {
  secret: { namespace: string; name: string };
  key: string;
} {
  return { secret: { namespace: workload.metadata.namespace ?? '', name: superuserSecretName(workload) }, key: SUPERUSER_SECRET_KEYS.password };
}

/** myid = ordinal + MYID_OFFSET: the start script and every controller use this one rule. */
export const MYID_OFFSET = 1;
/** ZooKeeper server ids zk-oam uses: 1..255. */
export const MAX_MYID = 255;

export function myidOfOrdinal(ordinal: number): number {
  return ordinal + MYID_OFFSET;
}

export function ordinalOfMyid(myid: number): number {
  return myid - MYID_OFFSET;
}

/** The StatefulSet pod `<statefulSet>-<ordinal>`. */
export function podName(statefulSet: string, ordinal: number): string {
  return `${statefulSet}-${ordinal}`;
}

/** The pod member `myid` runs in, also for members known only from the committed config (their pod may be gone). */
export function podOfMember(statefulSet: string, myid: number): string {
  return podName(statefulSet, ordinalOfMyid(myid));
}

/** The StatefulSet's volume claim template of the members' data. */
export const DATA_VOLUME = 'data';

/** The member's data volume `data-<statefulSet>-<ordinal>`, named by the StatefulSet controller. */
export function volumeName(statefulSet: string, ordinal: number): string {
  return `${DATA_VOLUME}-${podName(statefulSet, ordinal)}`;
}

/** The ordinal of a pod of `statefulSet`, or undefined for a pod that is not one of its members. */
export function ordinalOfPod(pod: string, statefulSet: string): number | undefined {
  return ordinalAfter(`${statefulSet}-`, pod);
}

/** The ordinal of a data volume of `statefulSet`, or undefined for any other claim. */
export function ordinalOfVolume(claim: string, statefulSet: string): number | undefined {
  return ordinalAfter(`${DATA_VOLUME}-${statefulSet}-`, claim);
}

function ordinalAfter(prefix: string, name: string): number | undefined {
  if (!name.startsWith(prefix)) return undefined;
  const digits = name.slice(prefix.length);
  return /^(0|[1-9]\d*)$/.test(digits) ? Number(digits) : undefined;
}

/** The myid a pod of `statefulSet` runs, or undefined when it is not a member or past the id range. */
export function myidOfPod(pod: string, statefulSet: string): number | undefined {
  const ordinal = ordinalOfPod(pod, statefulSet);
  if (ordinal === undefined) return undefined;
  const myid = myidOfOrdinal(ordinal);
  return myid <= MAX_MYID ? myid : undefined;
}

export const CLUSTER_DOMAIN = 'cluster.local';

/** `<client service>.<namespace>.svc.cluster.local`: where clients reach the serving members. */
export function clientServiceHost(workload: string, namespace: string): string {
  return `${derivedNames(workload).clientService}.${namespace}.svc.${CLUSTER_DOMAIN}`;
}

/** `<headless service>.<namespace>.svc.cluster.local`: member pods are named under it. */
export function memberDomain(workload: string, namespace: string): string {
  return `${derivedNames(workload).headlessService}.${namespace}.svc.${CLUSTER_DOMAIN}`;
}

/** The stable DNS name of the pod with this ordinal, as the rendered server lines address members. */
export function memberHost(workload: string, namespace: string, ordinal: number): string {
  return `${podName(derivedNames(workload).statefulSet, ordinal)}.${memberDomain(workload, namespace)}`;
}

/**
 * The DNS name a member's certificate is checked against when it is asked over TLS: members are dialled by pod IP,
 * which no certificate names, so the name is the member's own under the headless Service.
 */
export function memberServerName(workload: string, namespace: string): (member: { readonly myid: number }) => string {
  return ({ myid }) => memberHost(workload, namespace, ordinalOfMyid(myid));
}

/** How a controller reaches a workload's members: the port it asks on and, on a secure one, what it trusts there. */
export interface MemberReach {
  readonly port: number;
  readonly tls: { readonly ca: string; readonly serverName: (member: { readonly myid: number }) => string } | undefined;
}

/** Where the CA the members' certificates chain to is kept: `ca.crt` of the member TLS Secret. */
export function memberCaRef(workload: string, namespace: string): { secret: { namespace: string; name: string }; key: string } {
  return { secret: { namespace, name: derivedNames(workload).tlsSecret }, key: TLS_SECRET_KEYS.ca };
}

/**
 * Reads one key of a Secret (runtime's readSecretValue bound to a client, in a controller): the reach functions ask it
 * for the members' CA, at memberCaRef, only when a secure port is to be used.
 */
export type SecretKeyReader = (ref: { secret: { namespace: string; name: string }; key: string }) => Promise<string>;

/**
 * Where a controller asks members four-letter words: the plain client port, or for a TLS-only ensemble the secure one,
 * trusting the workload's CA and checking each member's own DNS name in its certificate.
 */
export async function memberReach(workload: string, namespace: string, tls: { client: ClientTlsMode }, readSecret: SecretKeyReader): Promise<MemberReach> {
  if (hasPlainClientPort(tls)) return { port: ZOOKEEPER_PORTS.client, tls: undefined };
  return { port: ZOOKEEPER_PORTS.secureClient, tls: { ca: await readSecret(memberCaRef(workload, namespace)), serverName: memberServerName(workload, namespace) } };
}

/** Whether members open the secure client port 2281 (beside the plain one, or alone). */
export function hasSecureClientPort(tls: { client: ClientTlsMode }): boolean {
  return tls.client !== 'Disabled';
}

/**
 * Where a controller opens the superuser's admin session (reconfig, confirm-by-write): over TLS on the secure port
 * whenever members open one, so the superuser's credential never crosses the network in plain text; else on the plain
 * port.
 */
export async function adminReach(workload: string, namespace: string, tls: { client: ClientTlsMode }, readSecret: SecretKeyReader): Promise<MemberReach> {
  if (!hasSecureClientPort(tls)) return { port: ZOOKEEPER_PORTS.client, tls: undefined };
  return { port: ZOOKEEPER_PORTS.secureClient, tls: { ca: await readSecret(memberCaRef(workload, namespace)), serverName: memberServerName(workload, namespace) } };
}

/** "zk-1 (myid 2, 10.0.0.2)": how every status message, Event and log names a member. */
export function memberName(member: { pod: string; myid: number; ip?: string | undefined }): string {
  const ip = member.ip === undefined || member.ip === '' ? '' : `, ${member.ip}`;
  return `${member.pod} (myid ${member.myid}${ip})`;
}
