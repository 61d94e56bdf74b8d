// The move of a serving ensemble's member-to-member traffic to TLS: which step to render, decided from the live
// StatefulSet; pure. One step forward only once every member runs the step before, so that at any moment each member
// can talk to each other one, whichever of two neighbouring steps they run.
import type { V1StatefulSet } from '@kubernetes/client-node';
import { finalQuorumTlsStep, QUORUM_TLS_STEPS, type QuorumTlsStep, type TlsSpec } from '@zk-oam/apis';

/** On the StatefulSet: the quorum TLS step its template renders (QUORUM_TLS_STEPS), so a move to TLS resumes where it was. */
export const QUORUM_TLS_ANNOTATION = 'workload.zookeeper.zkoam.dev/quorum-tls';

const STEP_AFTER: Readonly<Record<QuorumTlsStep, QuorumTlsStep>> = {
  Plain: 'PlainAcceptingTls',
  PlainAcceptingTls: 'TlsAcceptingPlain',
  TlsAcceptingPlain: 'Tls',
  Tls: 'Tls',
};

const STEP_MEANING: Readonly<Record<QuorumTlsStep, string>> = {
  Plain: 'members talk in plain text',
  PlainAcceptingTls: 'members connect to each other in plain text and accept TLS too',
  TlsAcceptingPlain: 'members connect to each other with TLS and still accept plain text',
  Tls: 'members talk TLS only',
};

function isStep(value: string | undefined): value is QuorumTlsStep {
  return (QUORUM_TLS_STEPS as readonly (string | undefined)[]).includes(value);
}

/**
 * The step the live StatefulSet renders. One applied before the step was recorded ran what the spec said: the quorum
 * setting could not change then.
 */
export function liveQuorumTls(statefulSet: V1StatefulSet, tls: Pick<TlsSpec, 'quorum'>): QuorumTlsStep {
  const recorded = statefulSet.metadata?.annotations?.[QUORUM_TLS_ANNOTATION];
  return isStep(recorded) ? recorded : finalQuorumTlsStep(tls);
}

/** Every pod the StatefulSet wants runs its current template and is ready (it serves, as ready.sh checks). */
export function everyMemberUpdated(statefulSet: V1StatefulSet): boolean {
  const { metadata, spec, status } = statefulSet;
  const replicas = spec?.replicas ?? 0;
  return (
    status !== undefined &&
    status.observedGeneration === metadata?.generation &&
    status.updatedReplicas === replicas &&
    status.readyReplicas === replicas &&
    status.replicas === replicas
  );
}

/**
 * A new workload starts at the spec's step. A live one moves one step towards it once every member runs the live step.
 * A spec that asks to go back (the CRD refuses it) keeps the live step: jumping back could split the members.
 */
export function decideQuorumTls(tls: Pick<TlsSpec, 'quorum'>, statefulSet: V1StatefulSet | undefined): QuorumTlsStep {
  const target = finalQuorumTlsStep(tls);
  if (statefulSet === undefined) return target;
  const live = liveQuorumTls(statefulSet, tls);
  if (live === target || target === 'Plain') return live;
  if (live === 'Plain') return STEP_AFTER[live];
  return everyMemberUpdated(statefulSet) ? STEP_AFTER[live] : live;
}

/** Whether a step is one of the move's intermediate ones. */
export function isMovingToTls(step: QuorumTlsStep): boolean {
  return step === 'PlainAcceptingTls' || step === 'TlsAcceptingPlain';
}

/** "step 2 of 3 (TlsAcceptingPlain: members connect to each other with TLS and still accept plain text)". */
export function describeQuorumTls(step: QuorumTlsStep): string {
  const index = QUORUM_TLS_STEPS.indexOf(step);
  const ofMove = step === 'Plain' ? '' : `step ${String(index)} of ${String(QUORUM_TLS_STEPS.length - 1)} `;
  return `${ofMove}(${step}: ${STEP_MEANING[step]})`;
}
