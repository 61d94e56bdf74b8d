// The rotation of the CA of a serving ensemble, decided from the member Secret and the live StatefulSet; pure. Members
// trust only the ca.crt they started with, so the new CA reaches them in three rolls, each started once every member
// runs the one before: any two members, on neighbouring steps, trust each other's certificate at every moment.
//   1. ca.crt = old CAs + new CA, the certificate of the old CA kept;
//   2. a certificate of the new CA, ca.crt unchanged;
//   3. ca.crt = the new CA alone.
import type { V1StatefulSet } from '@kubernetes/client-node';
import { TLS_SECRET_KEYS } from '@zk-oam/apis';
import { CERTIFICATE_ANNOTATION, tlsPodAnnotations, TRUST_BUNDLE_ANNOTATION } from './member-config.js';
import { joinedPem, parsed, pemBlocks, trustBundleHash } from './pem.js';
import { everyMemberUpdated } from './quorum-steps.js';

/** On the StatefulSet while the CA rotates: the rotation's step its template renders (1, 2 or 3), for the status. */
export const CA_ROTATION_ANNOTATION = 'workload.zookeeper.zkoam.dev/ca-rotation';

export const CA_ROTATION_STEPS = [1, 2, 3] as const;
export type CaRotationStep = (typeof CA_ROTATION_STEPS)[number];

export type CaRotation =
  /** Nothing to rotate: the certificate verdict alone decides. */
  | { readonly kind: 'none' }
  /** The step is written; its roll goes on. */
  | { readonly kind: 'wait'; readonly step: CaRotationStep }
  /** Write ca.crt, keep the certificate: steps 1 and 3. */
  | { readonly kind: 'trust'; readonly step: 1 | 3; readonly caPem: string }
  /** Issue the certificate from the new CA, keep ca.crt: step 2. */
  | { readonly kind: 'issue'; readonly step: 2 }
  /** The new CA cannot be trusted beside the old one: nothing is written. */
  | { readonly kind: 'refuse'; readonly problem: string };

export interface CaRotationInput {
  /** The member Secret's data, decoded. */
  readonly data: Readonly<Record<string, string>>;
  /** The CA that signs member certificates now (the CA Secret's). */
  readonly caPem: string;
  /** The live StatefulSet; undefined before it exists (no member runs anything yet). */
  readonly statefulSet: V1StatefulSet | undefined;
}

/** The step the live StatefulSet records, undefined when it records none. */
export function liveCaRotation(statefulSet: V1StatefulSet | undefined): CaRotationStep | undefined {
  const recorded = statefulSet?.metadata?.annotations?.[CA_ROTATION_ANNOTATION];
  return CA_ROTATION_STEPS.find((step) => String(step) === recorded);
}

/**
 * Every member runs this Secret's content: the StatefulSet's template carries its certificate and trusted CAs (a
 * template rendered from an older content, read from a cache that lags our write, does not count), and every pod runs
 * that template and is ready.
 */
export function membersRun(statefulSet: V1StatefulSet | undefined, data: Readonly<Record<string, string>>): boolean {
  if (statefulSet === undefined) return true;
  const live = statefulSet.spec?.template.metadata?.annotations ?? {};
  const wanted = tlsPodAnnotations(parsed(data[TLS_SECRET_KEYS.certificate])?.fingerprint256, trustBundleHash(data[TLS_SECRET_KEYS.ca] ?? ''));
  const keys = [CERTIFICATE_ANNOTATION, TRUST_BUNDLE_ANNOTATION];
  return keys.every((key) => live[key] === wanted[key]) && everyMemberUpdated(statefulSet);
}

/**
 * ZooKeeper's PEM trust store (PemReader.loadTrustStore) names each CA by its subject, so of two CAs with one subject
 * it keeps the last: a bundle of both would trust the new CA only, and the members restarted in step 1 would refuse
 * the others.
 */
function sameSubjectProblem(trusted: readonly string[], subject: string): string | undefined {
  if (!trusted.some((other) => other.toLowerCase() === subject.toLowerCase())) return undefined;
  return (
    `holds a new CA with the subject of a CA the members trust (${subject}); ZooKeeper keeps one trusted CA per subject, so ` +
    'the members could not trust both during the rotation: give the new CA another subject'
  );
}

export function decideCaRotation({ data, caPem, statefulSet }: CaRotationInput): CaRotation {
  const leaf = parsed(data[TLS_SECRET_KEYS.certificate]);
  const ca = parsed(caPem);
  if (leaf === undefined || ca === undefined) return { kind: 'none' };
  const trustedPem = data[TLS_SECRET_KEYS.ca] ?? '';
  const trusted = pemBlocks(trustedPem).flatMap((block) => parsed(block) ?? []);
  const running = membersRun(statefulSet, data);
  if (!trusted.some((certificate) => certificate.fingerprint256 === ca.fingerprint256)) {
    const problem = sameSubjectProblem(trusted.map((certificate) => certificate.subject), ca.subject);
    return problem === undefined ? { kind: 'trust', step: 1, caPem: joinedPem(trustedPem, caPem) } : { kind: 'refuse', problem };
  }
  if (!(leaf.checkIssued(ca) && leaf.verify(ca.publicKey))) return running ? { kind: 'issue', step: 2 } : { kind: 'wait', step: 1 };
  if (trusted.length > 1) return running ? { kind: 'trust', step: 3, caPem } : { kind: 'wait', step: 2 };
  return liveCaRotation(statefulSet) !== undefined && !running ? { kind: 'wait', step: 3 } : { kind: 'none' };
}

/** The step a decision renders (recorded on the StatefulSet), undefined outside a rotation. */
export function rotationStep(rotation: CaRotation): CaRotationStep | undefined {
  return rotation.kind === 'none' || rotation.kind === 'refuse' ? undefined : rotation.step;
}

const STEP_MEANING: Readonly<Record<CaRotationStep, string>> = {
  1: 'members trust the old and the new CA',
  2: 'members present a certificate of the new CA, trusting both',
  3: 'members trust the new CA only',
};

/** "step 2 of 3 (members present a certificate of the new CA, trusting both)". */
export function describeCaRotation(step: CaRotationStep): string {
  return `step ${String(step)} of ${String(CA_ROTATION_STEPS.length)} (${STEP_MEANING[step]})`;
}
