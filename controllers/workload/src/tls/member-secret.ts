// The member Secret `<name>-tls` judged: whether its certificate stays, where a CA rotation stands, and what to write
// into it next; and what the rest of the reconcile needs of it. Pure: Secret data, CA, names and the time in.
// Key material stays in the Secrets: what this returns for the reconcile holds no key.
import type { V1StatefulSet } from '@kubernetes/client-node';
import { DEFAULT_VALIDITY_HOURS, TLS_SECRET_KEYS, type ZookeeperWorkload } from '@zk-oam/apis';
import { workloadNames } from '../render/identity.js';
import { decideCaRotation, describeCaRotation, rotationStep, type CaRotation, type CaRotationStep } from './ca-rotation.js';
import type { SigningCa } from './issue.js';
import { parsed, trustBundleHash } from './pem.js';
import { certificateVerdict, renewalTime, type CertificateVerdict } from './renewal.js';
import { issueMemberSecretData } from './secret-data.js';

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

/** The member Secret judged: whether its certificate can stay, and where a CA rotation stands. */
export interface JudgedMemberSecret {
  readonly data: Readonly<Record<string, string>> | undefined;
  readonly verdict: CertificateVerdict;
  readonly rotation: CaRotation;
}

export interface MemberSecretContext {
  readonly workload: ZookeeperWorkload;
  readonly dnsNames: readonly string[];
  /** spec.tls.certificates.renewBeforeMinutes; undefined for the default, a third of the lifetime. */
  readonly renewBeforeMinutes: number | undefined;
  readonly now: Date;
  readonly statefulSet: V1StatefulSet | undefined;
}

const NO_ROTATION: CaRotation = { kind: 'none' };

/** `data`: the member Secret's, decoded; undefined when there is no Secret. */
export function judgeMemberSecret(data: Readonly<Record<string, string>> | undefined, signing: SigningCa, context: MemberSecretContext): JudgedMemberSecret {
  const { dnsNames, renewBeforeMinutes, now } = context;
  const verdict = certificateVerdict({ data, caPem: signing.certificatePem, dnsNames, renewBeforeMinutes, now });
  const rotates = data !== undefined && (verdict.action === 'keep' || verdict.cause === 'otherCa');
  return { data, verdict, rotation: rotates ? decideCaRotation({ data, caPem: signing.certificatePem, statefulSet: context.statefulSet }) : NO_ROTATION };
}

/** Nothing to write: the certificate stays, or a rotation step's roll goes on. */
export function isSteady({ verdict, rotation }: JudgedMemberSecret): boolean {
  return rotation.kind === 'wait' || (verdict.action === 'keep' && rotation.kind === 'none');
}

/** Why the member Secret is written, for the Event that says so. */
export function writeReason({ verdict, rotation }: JudgedMemberSecret): string {
  const step = rotationStep(rotation);
  if (step !== undefined) return `rotating the CA, ${describeCaRotation(step)}`;
  return verdict.action === 'issue' ? verdict.reason : 'the CA in ca.crt is written anew';
}

/** The member Secret's next content: the CAs trusted changed (steps 1 and 3), or a certificate issued (step 2, or anew). */
export async function nextMemberSecretData({ data, rotation }: JudgedMemberSecret, signing: SigningCa, context: MemberSecretContext): Promise<Record<string, string>> {
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
export function tlsStateOf(data: Readonly<Record<string, string>>, rotation: CaRotation, renewBeforeMinutes: number | undefined): TlsState {
  const caPem = data[TLS_SECRET_KEYS.ca] ?? '';
  const certificate = parsed(data[TLS_SECRET_KEYS.certificate]);
  if (certificate === undefined) throw new Error('the member certificate kept does not parse');
  return { caPem, fingerprint: certificate.fingerprint256, trustBundleHash: trustBundleHash(caPem), caRotation: rotationStep(rotation), renewAt: renewalTime(certificate, renewBeforeMinutes) };
}
