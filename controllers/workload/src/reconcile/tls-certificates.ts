// After the superuser Secret, only when spec.tls uses TLS: the CA and the member certificate, each in a Secret the
// workload owns. The member certificate is issued again when missing, unreadable, from another CA, for other names, or due for renewal.
// When spec.tls.certificates names a cert-manager issuer, cert-manager-certificate.ts requests it instead.
// Key material stays in the Secrets: notes, logs and errors name Secrets, reasons and dates only.
import { DEFAULT_VALIDITY_HOURS, usesTls, type ZookeeperWorkload } from '@zk-oam/apis';
import { applyObject, collectionPath, coreResources, isApiError, type KubeClient } from '@zk-oam/runtime';
import { childMetadata, workloadNames } from '../render/identity.js';
import { ensureCertManagerCertificate } from './cert-manager-certificate.js';
import { readCa } from '../tls/ca.js';
import type { SigningCa } from '../tls/issue.js';
import { memberCertificateNames } from '../tls/names.js';
import { certificateVerdict, type CertificateVerdict } from '../tls/renewal.js';
import { issueCaSecretData, issueMemberSecretData } from '../tls/secret-data.js';
import type { ChildAction } from './apply-children.js';
import type { WorkloadReconcilerDependencies } from './dependencies.js';
import { TlsCaSecretInvalidError } from './errors.js';
import { FIELD_MANAGER } from './markers.js';
import { decodedData, encoded, readLiveSecret, readSecret } from './secrets.js';

type Deps = Pick<WorkloadReconcilerDependencies, 'caches' | 'now'> & { readonly client: Pick<KubeClient, 'request'> };
type IssuerDeps = Deps & Pick<WorkloadReconcilerDependencies, 'certManagerServed'>;

/** What the rest of the reconcile needs of the certificates: never a key. */
export interface TlsState {
  /** The CA certificate (public): what the observer trusts on a secure port. */
  readonly caPem: string;
  /** SHA-256 fingerprint of the member certificate: on the pod template, so that a new certificate restarts the members. */
  readonly fingerprint: string;
  /** When the controller issues it again; undefined when cert-manager renews it (its Secret's watch brings the news). */
  readonly renewAt: Date | undefined;
}

export interface TlsOutcome {
  readonly state: TlsState | undefined;
  readonly actions: ChildAction[];
}

export async function ensureTlsCertificates(deps: IssuerDeps, workload: ZookeeperWorkload): Promise<TlsOutcome> {
  if (!usesTls(workload.spec.tls)) return { state: undefined, actions: [] };
  const issuerRef = workload.spec.tls.certificates?.issuerRef;
  if (issuerRef !== undefined) return ensureCertManagerCertificate(deps, workload, issuerRef);
  const caActions: ChildAction[] = [];
  const ca = await signingCa(deps, workload, caActions);
  const member = await memberCertificate(deps, workload, ca);
  return { state: member.state, actions: [...caActions, ...member.actions] };
}

async function signingCa(deps: Deps, workload: ZookeeperWorkload, actions: ChildAction[]): Promise<SigningCa> {
  const name = workloadNames(workload).tlsCaSecret;
  const reading = await readCa(await caSecretData(deps, workload, name, actions), deps.now());
  if (!reading.ok) throw new TlsCaSecretInvalidError(name, reading.problem);
  return reading.ca;
}

/** The CA Secret's data: the user's, or the controller's own, created once (another writer that was first wins). */
async function caSecretData(deps: Deps, workload: ZookeeperWorkload, name: string, actions: ChildAction[]): Promise<Record<string, string>> {
  const { namespace } = workloadNames(workload);
  const existing = await readSecret(deps, namespace, name);
  if (existing !== undefined) return decodedData(existing);
  if (workload.spec.tls.certificates?.caSecretRef !== undefined) {
    throw new TlsCaSecretInvalidError(name, 'named in spec.tls.certificates.caSecretRef does not exist');
  }
  const data = await issueCaSecretData({ commonName: `zk-oam CA of ZookeeperWorkload ${namespace}/${workload.metadata.name}`, now: deps.now() });
  try {
    await deps.client.request('POST', collectionPath(coreResources.secret, namespace), {
      body: { apiVersion: 'v1', kind: 'Secret', metadata: secretMetadata(workload, name), type: 'kubernetes.io/tls', data: encoded(data) },
    });
  } catch (error) {
    const raced = isApiError(error, 409) ? await readSecret(deps, namespace, name) : undefined;
    if (raced === undefined) throw error;
    return decodedData(raced);
  }
  actions.push({ verb: 'Created', kind: 'Secret', name, note: `Created Secret ${name} (a new CA for the members' certificate)` });
  return data;
}

/**
 * Keeps or issues the member certificate. The cache decides first; a verdict to issue is checked against the API, since
 * the cache may not have our own last write yet, and issuing twice would restart the members twice.
 */
async function memberCertificate(deps: Deps, workload: ZookeeperWorkload, ca: SigningCa): Promise<TlsOutcome> {
  const { namespace, workload: name, tlsSecret } = workloadNames(workload);
  const dnsNames = memberCertificateNames(name, namespace);
  const now = deps.now();
  const certificates = workload.spec.tls.certificates;
  const renewBeforeMinutes = certificates?.renewBeforeMinutes;
  const verdictOf = (secret: unknown): CertificateVerdict =>
    certificateVerdict({ data: secret === undefined ? undefined : decodedData(secret), caPem: ca.certificatePem, dnsNames, renewBeforeMinutes, now });
  const cached = verdictOf(deps.caches.secrets.get({ namespace, name: tlsSecret }));
  const live = await (cached.action === 'keep' ? undefined : readLiveSecret(deps, namespace, tlsSecret));
  const verdict = cached.action === 'keep' ? cached : verdictOf(live);
  if (verdict.action === 'keep') return { state: { caPem: ca.certificatePem, fingerprint: verdict.fingerprint, renewAt: verdict.renewAt }, actions: [] };
  if (verdict.cause === 'otherCa') throw new TlsCaSecretInvalidError(workloadNames(workload).tlsCaSecret, otherCaProblem(tlsSecret));
  const data = await issueMemberSecretData({
    ca,
    commonName: `${name}.${namespace}`,
    dnsNames,
    validityHours: certificates?.validityHours ?? DEFAULT_VALIDITY_HOURS,
    now,
  });
  await applyObject(
    deps.client,
    coreResources.secret,
    { metadata: secretMetadata(workload, tlsSecret), type: 'kubernetes.io/tls', data: encoded(data) },
    { fieldManager: FIELD_MANAGER },
  );
  const issued = certificateVerdict({ data, caPem: ca.certificatePem, dnsNames, renewBeforeMinutes, now });
  if (issued.action !== 'keep') throw new Error(`the certificate just issued for Secret ${tlsSecret} fails its own check: ${issued.reason}`);
  const verb = live === undefined ? 'Created' : 'Updated';
  return {
    state: { caPem: ca.certificatePem, fingerprint: issued.fingerprint, renewAt: issued.renewAt },
    actions: [{ verb, kind: 'Secret', name: tlsSecret, note: `${verb} Secret ${tlsSecret} (member certificate until ${issued.notAfter.toISOString()}: ${verdict.reason})` }],
  };
}

/**
 * Members trust only the CA their own Secret carried when they started: restarting them one by one onto certificates
 * of another CA would leave the restarted ones unable to reach the others. Rotating the CA is not supported yet, so a
 * changed CA is reported and nothing is issued until a person decides.
 */
function otherCaProblem(tlsSecret: string): string {
  return (
    `holds another CA than the one that issued the members' certificate (Secret ${tlsSecret}); rotating the CA is not ` +
    `supported yet: restore the previous CA, or delete Secret ${tlsSecret} to have the members restart onto a certificate ` +
    'of the new CA (a restarted member cannot reach the others until all have restarted)'
  );
}

/** Name, namespace, labels (the cache sees only labelled Secrets) and the workload as controller owner. */
function secretMetadata(workload: ZookeeperWorkload, name: string): { name: string; namespace: string; labels?: Record<string, string>; ownerReferences?: unknown[] } {
  const { namespace, labels, ownerReferences } = childMetadata(workload, name);
  return { name, namespace, ...(labels === undefined ? {} : { labels }), ...(ownerReferences === undefined ? {} : { ownerReferences }) };
}
