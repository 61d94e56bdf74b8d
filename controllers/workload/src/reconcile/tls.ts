// The reconcile's TLS step: everything TLS that needs a client, and nothing else (what TLS is, decided without one, is
// in tls/). Only when spec.tls uses TLS: the CA that signs the member certificate (the user's caSecretRef, checked;
// else the controller's own in `<name>-tls-ca`, created once and made anew when two thirds of its life are gone) and
// the member Secret `<name>-tls`, kept, issued again, or moved through a CA rotation's three rolls
// (tls/ca-rotation.ts); with spec.tls.certificates.issuerRef, a cert-manager Certificate instead, whose Secret the
// members mount. With spec.authentication.x509, the user's client CA Secret, checked. After the apply, a Normal Event
// for each TLS step that starts; and how the observer reaches the members.
// Key material stays in the Secrets: notes, logs and errors name Secrets, reasons and dates only.
import type { V1StatefulSet } from '@kubernetes/client-node';
import { kubernetesTime, memberReach, TLS_SECRET_KEYS, usesTls, type IssuerRef, type QuorumTlsStep, type ZookeeperWorkload } from '@zk-oam/apis';
import { applyObject, collectionPath, coreResources, isApiError, type KubeClient, type KubeObject } from '@zk-oam/runtime';
import type { MemberAccess } from '@zk-oam/zookeeper';
import { workloadNames } from '../render/identity.js';
import {
  buildCertificate,
  describeCaRotation,
  describeQuorumTls,
  isSteady,
  issueCaSecretData,
  issuedSecretVerdict,
  judgeMemberSecret,
  liveQuorumTls,
  memberCertificateNames,
  nextMemberSecretData,
  ownCaRenewalTime,
  parsed,
  readCa,
  readClientCa,
  rotationStep,
  tlsStateOf,
  trustBundleHash,
  writeReason,
  type CaRotationStep,
  type MemberSecretContext,
  type SigningCa,
  type TlsState,
} from '../tls/index.js';
import { applyIfChanged, type ChildAction } from './apply-children.js';
import type { WorkloadReconcilerDependencies } from './dependencies.js';
import { AuthenticationSecretInvalidError, CertificateNotIssuedError, CertManagerMissingError, TlsCaSecretInvalidError } from './errors.js';
import { certificateResource, IDENTITY } from './resources.js';
import { decodedData, encoded, encodedData, readLiveSecret, readSecret, secretMetadata } from './secrets.js';

type Deps = Pick<WorkloadReconcilerDependencies, 'caches' | 'now'> & { readonly client: Pick<KubeClient, 'request'> };
type IssuerDeps = Deps & Pick<WorkloadReconcilerDependencies, 'certManagerServed'>;

export interface TlsOutcome {
  readonly state: TlsState | undefined;
  readonly actions: ChildAction[];
  /** The CA rotation step this reconcile started by writing the member Secret. */
  readonly rotationBegun?: CaRotationStep | undefined;
}

export async function ensureTlsCertificates(deps: IssuerDeps, workload: ZookeeperWorkload, statefulSet: V1StatefulSet | undefined): Promise<TlsOutcome> {
  if (!usesTls(workload.spec.tls)) return { state: undefined, actions: [] };
  const issuerRef = workload.spec.tls.certificates?.issuerRef;
  if (issuerRef !== undefined) return ensureCertManagerCertificate(deps, workload, issuerRef);
  const caActions: ChildAction[] = [];
  const ca = await signingCa(deps, workload, caActions, readSecret);
  const member = await memberCertificate(deps, workload, statefulSet, ca);
  return { ...member, state: { ...member.state, renewAt: earlier(member.state.renewAt, ca.renewAt) }, actions: [...caActions, ...member.actions] };
}

/**
 * Keeps the member Secret, writes the next step of a CA rotation into it, or issues a certificate. The cache decides
 * first; a decision to write is taken again from the API (member Secret and CA), since the cache may not have our own
 * last write yet, and writing twice would restart the members twice.
 */
async function memberCertificate(deps: Deps, workload: ZookeeperWorkload, statefulSet: V1StatefulSet | undefined, ca: CaInUse): Promise<TlsOutcome & { state: TlsState }> {
  const { namespace, workload: name, tlsSecret } = workloadNames(workload);
  const renewBeforeMinutes = workload.spec.tls.certificates?.renewBeforeMinutes;
  const context: MemberSecretContext = { workload, dnsNames: memberCertificateNames(name, namespace), renewBeforeMinutes, now: deps.now(), statefulSet };
  const cachedSecret = deps.caches.secrets.get({ namespace, name: tlsSecret });
  const cached = judgeMemberSecret(cachedSecret === undefined ? undefined : decodedData(cachedSecret), ca.ca, context);
  if (isSteady(cached) && cached.data !== undefined) return { state: tlsStateOf(cached.data, cached.rotation, renewBeforeMinutes), actions: [] };
  const live = await readLiveSecret(deps, namespace, tlsSecret);
  const signing = await ca.live();
  const judged = judgeMemberSecret(live === undefined ? undefined : decodedData(live), signing, context);
  if (isSteady(judged) && judged.data !== undefined) return { state: tlsStateOf(judged.data, judged.rotation, renewBeforeMinutes), actions: [] };
  if (judged.rotation.kind === 'refuse') throw new TlsCaSecretInvalidError(workloadNames(workload).tlsCaSecret, judged.rotation.problem);
  const written = await nextMemberSecretData(judged, signing, context);
  await applyObject(
    deps.client,
    coreResources.secret,
    { metadata: secretMetadata(workload, tlsSecret), type: 'kubernetes.io/tls', data: encoded(written) },
    { fieldManager: IDENTITY.fieldManager },
  );
  const verb = live === undefined ? 'Created' : 'Updated';
  const notAfter = kubernetesTime(new Date(parsed(written[TLS_SECRET_KEYS.certificate])?.validTo ?? 0));
  return {
    state: tlsStateOf(written, judged.rotation, renewBeforeMinutes),
    actions: [{ verb, kind: 'Secret', name: tlsSecret, note: `${verb} Secret ${tlsSecret} (member certificate until ${notAfter}: ${writeReason(judged)})` }],
    rotationBegun: rotationStep(judged.rotation),
  };
}

function earlier(first: Date | undefined, second: Date | undefined): Date | undefined {
  if (first === undefined || second === undefined) return first ?? second;
  return first.getTime() <= second.getTime() ? first : second;
}

/** readSecret (the cache first) or readLiveSecret (the API). */
type SecretReader = (deps: Deps, namespace: string, name: string) => Promise<unknown>;

interface CaInUse {
  readonly ca: SigningCa;
  /** When the controller's own CA is renewed; undefined for a user's CA (the user rotates it). */
  readonly renewAt: Date | undefined;
  /** Reads it again from the API, for a decision to write: the cache may not have our own last write yet. */
  readonly live: () => Promise<SigningCa>;
}

/**
 * The CA that signs the member certificate: the user's, or the controller's own, made anew when two thirds of its life
 * are gone (the member Secret then rotates to it). A missing or broken CA Secret blocks the workload with TlsCaSecretInvalid.
 */
async function signingCa(deps: Deps, workload: ZookeeperWorkload, actions: ChildAction[], read: SecretReader): Promise<CaInUse> {
  const name = workloadNames(workload).tlsCaSecret;
  const now = deps.now();
  const reading = await readCa(await caSecretData(deps, workload, { name, read }, actions), now);
  if (!reading.ok) throw new TlsCaSecretInvalidError(name, reading.problem);
  const live = async (): Promise<SigningCa> => (read === readLiveSecret ? reading.ca : (await signingCa(deps, workload, [], readLiveSecret)).ca);
  if (workload.spec.tls.certificates?.caSecretRef !== undefined) return { ca: reading.ca, renewAt: undefined, live };
  const renewAt = ownCaRenewalTime(reading.ca);
  if (now.getTime() < renewAt.getTime()) return { ca: reading.ca, renewAt, live };
  if (read !== readLiveSecret) return signingCa(deps, workload, actions, readLiveSecret);
  return renewOwnCa(deps, workload, name, actions);
}

/** The controller's own CA, made anew in its Secret; the member Secret then rotates to it. */
async function renewOwnCa(deps: Deps, workload: ZookeeperWorkload, name: string, actions: ChildAction[]): Promise<CaInUse> {
  const data = await newCaData(workload, deps.now());
  await applyObject(deps.client, coreResources.secret, { metadata: secretMetadata(workload, name), type: 'kubernetes.io/tls', data: encoded(data) }, { fieldManager: IDENTITY.fieldManager });
  actions.push({ verb: 'Updated', kind: 'Secret', name, note: `Updated Secret ${name} (a new CA: two thirds of the previous one's life were gone)` });
  const reading = await readCa(data, deps.now());
  if (!reading.ok) throw new Error(`the CA just made for Secret ${name} fails its own check: ${reading.problem}`);
  return { ca: reading.ca, renewAt: ownCaRenewalTime(reading.ca), live: () => Promise.resolve(reading.ca) };
}

/**
 * A CA of the controller's own. Its name carries the time it was made: ZooKeeper trusts one CA per subject, and the
 * renewed CA must be trusted beside the previous one while the members rotate.
 */
function newCaData(workload: ZookeeperWorkload, now: Date): Promise<Record<string, string>> {
  const { namespace } = workloadNames(workload);
  return issueCaSecretData({ commonName: `zk-oam CA of ZookeeperWorkload ${namespace}/${workload.metadata.name} ${now.toISOString()}`, now });
}

/** The CA Secret's data: the user's, or the controller's own, created once (another writer that was first wins). */
async function caSecretData(deps: Deps, workload: ZookeeperWorkload, secret: { name: string; read: SecretReader }, actions: ChildAction[]): Promise<Record<string, string>> {
  const { name, read } = secret;
  const { namespace } = workloadNames(workload);
  const existing = await read(deps, namespace, name);
  if (existing !== undefined) return decodedData(existing);
  if (workload.spec.tls.certificates?.caSecretRef !== undefined) {
    throw new TlsCaSecretInvalidError(name, 'named in spec.tls.certificates.caSecretRef does not exist');
  }
  const data = await newCaData(workload, deps.now());
  try {
    await deps.client.request('POST', collectionPath(coreResources.secret, namespace), {
      body: { apiVersion: 'v1', kind: 'Secret', metadata: secretMetadata(workload, name), type: 'kubernetes.io/tls', data: encoded(data) },
    });
  } catch (error) {
    const raced = isApiError(error, 409) ? await readLiveSecret(deps, namespace, name) : undefined;
    if (raced === undefined) throw error;
    return decodedData(raced);
  }
  actions.push({ verb: 'Created', kind: 'Secret', name, note: `Created Secret ${name} (a new CA for the members' certificate)` });
  return data;
}

/**
 * With spec.tls.certificates.issuerRef: the controller requests a Certificate (owned by the workload) and the members
 * mount the Secret cert-manager writes for it. Nothing here signs or writes key material; a missing kind or a Secret
 * not issued yet blocks the workload with a condition saying so.
 */
async function ensureCertManagerCertificate(deps: IssuerDeps, workload: ZookeeperWorkload, issuerRef: IssuerRef): Promise<TlsOutcome> {
  const { namespace, tlsSecret } = workloadNames(workload);
  const certificate = buildCertificate(workload, issuerRef);
  if (!(await deps.certManagerServed())) throw new CertManagerMissingError(certificate.metadata.name);
  const applied = await applyIfChanged(deps, { resource: certificateResource, cache: 'api' }, certificate, namespace, () => ' (spec changed: cert-manager issues it again)');
  const actions: ChildAction[] = applied === undefined ? [] : [applied];
  const verdictOf = (secret: unknown) =>
    issuedSecretVerdict({ data: secret === undefined ? undefined : decodedData(secret), dnsNames: memberCertificateNames(workload.metadata.name, namespace), now: deps.now() });
  // The cache sees the Secret by the labels the Certificate's secretTemplate asks for; the API, if they were not copied.
  const cached = verdictOf(deps.caches.secrets.get({ namespace, name: tlsSecret }));
  const verdict = cached.usable ? cached : verdictOf(await readLiveSecret(deps, namespace, tlsSecret));
  if (!verdict.usable) throw new CertificateNotIssuedError(certificate.metadata.name, tlsSecret, verdict.problem, actions);
  // cert-manager renews it; the Secret's watch brings the renewal, so no renewal time of our own.
  return { state: { caPem: verdict.caPem, fingerprint: verdict.fingerprint, trustBundleHash: trustBundleHash(verdict.caPem), caRotation: undefined, renewAt: undefined }, actions };
}

/**
 * After the SASL users, only when spec.authentication uses x509: the client CA Secret is read (from the API: it is the
 * user's) and checked the way ZooKeeper will read it. Nothing is written: the members mount its ca.crt as it is (it
 * holds no key), and the digest of ca.crt goes on the pod template, so a new CA restarts them. A CA broken after a
 * member started reaches that member only if it restarts on its own; the reconcile reports it and renders nothing new.
 * Returns the SHA-256 of the client CA's ca.crt; undefined without x509.
 */
export async function checkClientCa(deps: Pick<Deps, 'caches' | 'client'>, workload: ZookeeperWorkload): Promise<string | undefined> {
  const x509 = workload.spec.authentication?.x509;
  if (x509 === undefined) return undefined;
  const secretName = x509.clientCaSecretRef.name;
  const secret = await readSecret(deps, workloadNames(workload).namespace, secretName);
  if (secret === undefined) throw new AuthenticationSecretInvalidError('client CA', secretName, 'named in spec.authentication.x509.clientCaSecretRef does not exist');
  const reading = readClientCa(encodedData(secret));
  if (!reading.ok) throw new AuthenticationSecretInvalidError('client CA', secretName, reading.problem);
  return reading.digest;
}

/** What this reconcile did that may start a TLS step: the StatefulSet as it was, the quorum step rendered, what was applied. */
export interface TlsSteps {
  readonly before: V1StatefulSet | undefined;
  readonly quorumStep: QuorumTlsStep;
  readonly applied: readonly ChildAction[];
  /** The CA rotation step this reconcile wrote into the member Secret. */
  readonly rotationBegun: CaRotationStep | undefined;
}

/**
 * A Normal Event when a step of the move to TLS or of a CA rotation starts, so `kubectl describe` tells their story.
 * A quorum step is announced only when this reconcile wrote the StatefulSet: a reconcile planned from a cache that has
 * not seen the write yet decides the same step again, applies nothing, and stays silent. A rotation step is announced
 * by the reconcile that wrote it into the member Secret: one Event per step.
 */
export async function announceTlsSteps(deps: Pick<WorkloadReconcilerDependencies, 'recorder'>, raw: KubeObject, workload: ZookeeperWorkload, steps: TlsSteps): Promise<void> {
  const { before, quorumStep, applied, rotationBegun } = steps;
  const statefulSetUpdated = applied.some((action) => action.kind === 'StatefulSet' && action.verb === 'Updated');
  if (before !== undefined && liveQuorumTls(before, workload.spec.tls) !== quorumStep && statefulSetUpdated) {
    const note = `Moving member-to-member traffic to TLS: the members restart into ${describeQuorumTls(quorumStep)}`;
    await deps.recorder.record(raw, { type: 'Normal', reason: 'MovingToTls', action: 'Migrate', note });
  }
  if (rotationBegun !== undefined) {
    const note = `Rotating the CA: the members restart into ${describeCaRotation(rotationBegun)}`;
    await deps.recorder.record(raw, { type: 'Normal', reason: 'RotatingCa', action: 'Rotate', note });
  }
}

/**
 * How the observer reaches a workload's members: the plain client port, or TLS on the secure port for a TLS-only
 * ensemble, trusting the CA the controller keeps and checking each member's DNS name in its certificate.
 */
export function memberAccess(workload: ZookeeperWorkload, tls: TlsState | undefined): Promise<MemberAccess> {
  const { workload: name, namespace } = workloadNames(workload);
  // The CA is the one this controller keeps: already in hand, not read again.
  const kept = (): Promise<string> =>
    tls === undefined ? Promise.reject(new Error(`ZookeeperWorkload ${name} has a secure client port but no certificates were kept`)) : Promise.resolve(tls.caPem);
  return memberReach(name, namespace, workload.spec.tls, kept);
}
