// After the superuser Secret, only when spec.tls uses TLS: the CA (tls-ca.ts) and the member certificate, each in a
// Secret the workload owns. The member certificate is issued again when missing, unreadable, for other names, or due
// for renewal; a new CA reaches the members through the three rolls of tls/ca-rotation.ts. When
// spec.tls.certificates names a cert-manager issuer, cert-manager-certificate.ts requests it instead.
// Key material stays in the Secrets: notes, logs and errors name Secrets, reasons and dates only.
import type { V1StatefulSet } from '@kubernetes/client-node';
import { DEFAULT_VALIDITY_HOURS, TLS_SECRET_KEYS, usesTls, type ZookeeperWorkload } from '@zk-oam/apis';
import { applyObject, coreResources, type KubeClient } from '@zk-oam/runtime';
import { workloadNames } from '../render/identity.js';
import { ensureCertManagerCertificate } from './cert-manager-certificate.js';
import { decideCaRotation, describeCaRotation, rotationStep, type CaRotation, type CaRotationStep } from '../tls/ca-rotation.js';
import type { SigningCa } from '../tls/issue.js';
import { memberCertificateNames } from '../tls/names.js';
import { trustBundleHash } from '../tls/pem.js';
import { certificateVerdict, parsed, renewalTime, type CertificateVerdict } from '../tls/renewal.js';
import { issueMemberSecretData } from '../tls/secret-data.js';
import type { ChildAction } from './apply-children.js';
import type { WorkloadReconcilerDependencies } from './dependencies.js';
import { TlsCaSecretInvalidError } from './errors.js';
import { FIELD_MANAGER } from './markers.js';
import { decodedData, encoded, readLiveSecret, readSecret, secretMetadata } from './secrets.js';
import { signingCa, type CaInUse } from './tls-ca.js';

type Deps = Pick<WorkloadReconcilerDependencies, 'caches' | 'now'> & { readonly client: Pick<KubeClient, 'request'> };
type IssuerDeps = Deps & Pick<WorkloadReconcilerDependencies, 'certManagerServed'>;

/** What the rest of the reconcile needs of the certificates: never a key. */
export interface TlsState {
  /** The member Secret's ca.crt (public; two CAs while the CA rotates): what the observer trusts on a secure port. */
  readonly caPem: string;
  /** SHA-256 fingerprint of the member certificate: on the pod template, so that a new certificate restarts the members. */
  readonly fingerprint: string;
  /** The hash of ca.crt while it holds several CAs: on the pod template, so that a change of trust restarts the members. */
  readonly trustBundleHash: string | undefined;
  /** The step of a CA rotation under way, recorded on the StatefulSet for the status; undefined outside one. */
  readonly caRotation: CaRotationStep | undefined;
  /** When the controller issues a certificate or its CA again; undefined when cert-manager renews it (its Secret's watch brings the news). */
  readonly renewAt: Date | undefined;
}

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

/** The member Secret judged: whether its certificate can stay, and where a CA rotation stands. */
interface MemberJudgement {
  readonly data: Readonly<Record<string, string>> | undefined;
  readonly verdict: CertificateVerdict;
  readonly rotation: CaRotation;
}

const NO_ROTATION: CaRotation = { kind: 'none' };

/** Nothing to write: the certificate stays, or a rotation step's roll goes on. */
function steady({ verdict, rotation }: MemberJudgement): boolean {
  return rotation.kind === 'wait' || (verdict.action === 'keep' && rotation.kind === 'none');
}

interface MemberContext {
  readonly workload: ZookeeperWorkload;
  readonly dnsNames: readonly string[];
  /** spec.tls.certificates.renewBeforeMinutes; undefined for the default, a third of the lifetime. */
  readonly renewBeforeMinutes: number | undefined;
  readonly now: Date;
  readonly statefulSet: V1StatefulSet | undefined;
}

function judge(secret: unknown, signing: SigningCa, context: MemberContext): MemberJudgement {
  const data = secret === undefined ? undefined : decodedData(secret);
  const { dnsNames, renewBeforeMinutes, now } = context;
  const verdict = certificateVerdict({ data, caPem: signing.certificatePem, dnsNames, renewBeforeMinutes, now });
  const rotates = data !== undefined && (verdict.action === 'keep' || verdict.cause === 'otherCa');
  return { data, verdict, rotation: rotates ? decideCaRotation({ data, caPem: signing.certificatePem, statefulSet: context.statefulSet }) : NO_ROTATION };
}

/**
 * Keeps the member Secret, writes the next step of a CA rotation into it, or issues a certificate. The cache decides
 * first; a decision to write is taken again from the API (member Secret and CA), since the cache may not have our own
 * last write yet, and writing twice would restart the members twice.
 */
async function memberCertificate(deps: Deps, workload: ZookeeperWorkload, statefulSet: V1StatefulSet | undefined, ca: CaInUse): Promise<TlsOutcome & { state: TlsState }> {
  const { namespace, workload: name, tlsSecret } = workloadNames(workload);
  const renewBeforeMinutes = workload.spec.tls.certificates?.renewBeforeMinutes;
  const context: MemberContext = { workload, dnsNames: memberCertificateNames(name, namespace), renewBeforeMinutes, now: deps.now(), statefulSet };
  const cached = judge(deps.caches.secrets.get({ namespace, name: tlsSecret }), ca.ca, context);
  if (steady(cached) && cached.data !== undefined) return { state: stateOf(cached.data, cached.rotation, renewBeforeMinutes), actions: [] };
  const live = await readLiveSecret(deps, namespace, tlsSecret);
  const signing = await ca.live();
  const judged = judge(live, signing, context);
  if (steady(judged) && judged.data !== undefined) return { state: stateOf(judged.data, judged.rotation, renewBeforeMinutes), actions: [] };
  if (judged.rotation.kind === 'refuse') throw new TlsCaSecretInvalidError(workloadNames(workload).tlsCaSecret, judged.rotation.problem);
  const written = await writtenData(judged, signing, context);
  await applyObject(
    deps.client,
    coreResources.secret,
    { metadata: secretMetadata(workload, tlsSecret), type: 'kubernetes.io/tls', data: encoded(written) },
    { fieldManager: FIELD_MANAGER },
  );
  const verb = live === undefined ? 'Created' : 'Updated';
  const notAfter = new Date(parsed(written[TLS_SECRET_KEYS.certificate])?.validTo ?? 0).toISOString();
  return {
    state: stateOf(written, judged.rotation, renewBeforeMinutes),
    actions: [{ verb, kind: 'Secret', name: tlsSecret, note: `${verb} Secret ${tlsSecret} (member certificate until ${notAfter}: ${writeReason(judged)})` }],
    rotationBegun: rotationStep(judged.rotation),
  };
}

function writeReason({ verdict, rotation }: MemberJudgement): string {
  const step = rotationStep(rotation);
  if (step !== undefined) return `rotating the CA, ${describeCaRotation(step)}`;
  return verdict.action === 'issue' ? verdict.reason : 'the CA in ca.crt is written anew';
}

/** The member Secret's next content: the CAs trusted changed (steps 1 and 3), or a certificate issued (step 2, or anew). */
async function writtenData({ data, rotation }: MemberJudgement, signing: SigningCa, context: MemberContext): Promise<Record<string, string>> {
  const { workload, dnsNames, renewBeforeMinutes, now } = context;
  if (rotation.kind === 'trust') return { ...data, [TLS_SECRET_KEYS.ca]: rotation.caPem };
  const issued = await issueMemberSecretData({
    ca: signing,
    commonName: `${workload.metadata.name}.${workloadNames(workload).namespace}`,
    dnsNames,
    validityHours: workload.spec.tls.certificates?.validityHours ?? DEFAULT_VALIDITY_HOURS,
    now,
  });
  // Step 2 keeps trusting both CAs: members still on the old certificate restart only in this roll.
  if (rotation.kind === 'issue') return { ...issued, [TLS_SECRET_KEYS.ca]: data?.[TLS_SECRET_KEYS.ca] ?? signing.certificatePem };
  const check = certificateVerdict({ data: issued, caPem: signing.certificatePem, dnsNames, renewBeforeMinutes, now });
  if (check.action !== 'keep') throw new Error(`the certificate just issued for Secret ${workloadNames(workload).tlsSecret} fails its own check: ${check.reason}`);
  return issued;
}

/** What the reconcile needs of a member Secret's content it keeps or wrote. */
function stateOf(data: Readonly<Record<string, string>>, rotation: CaRotation, renewBeforeMinutes: number | undefined): TlsState {
  const caPem = data[TLS_SECRET_KEYS.ca] ?? '';
  const certificate = parsed(data[TLS_SECRET_KEYS.certificate]);
  if (certificate === undefined) throw new Error('the member certificate kept does not parse');
  return { caPem, fingerprint: certificate.fingerprint256, trustBundleHash: trustBundleHash(caPem), caRotation: rotationStep(rotation), renewAt: renewalTime(certificate, renewBeforeMinutes) };
}

function earlier(first: Date | undefined, second: Date | undefined): Date | undefined {
  if (first === undefined || second === undefined) return first ?? second;
  return first.getTime() <= second.getTime() ? first : second;
}
