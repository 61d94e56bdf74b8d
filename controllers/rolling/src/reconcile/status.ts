// The trait's next status, derived from the stored one and this reconcile's verdict (pure): phase, progress, the pod
// in progress, whether the leader was restarted, times, and the Ready, Bound and Waiting conditions (set by the kit's
// setConditions: a condition's lastTransitionTime moves only when its status does).
import { disruptionLeaseName, kubernetesTime, type RollingPhase, type RollingReason, type ZookeeperRollingStatus } from '@zk-oam/apis';
import { lostLockMessage, observedGeneration, setConditions, withInvalidSpec, type ConditionVerdict, type LockOutcome } from '@zk-oam/runtime';
import { formatServerLine } from '@zk-oam/zookeeper';
import { WAITING_CONDITION_TYPE, waitingSince, waitingVerdict, type HandoverRecord, type PodToDelete, type RollingStep } from '../plan/index.js';
import { podsToDelete, type RollingVerdict } from './verdict.js';

export const BOUND_CONDITION_TYPE = 'Bound';
/** Bound, not Blocked, its spec valid and its lock not lost; the kit's failure report sets it False until the next successful reconcile. */
export const READY_CONDITION_TYPE = 'Ready';
export const LOCK_BUSY_REASON: RollingReason = 'DisruptionLockBusy';
/** Another operation took the lock while a pod of this roll was on its way back: Ready is False, and a person hears of it. */
const LOCK_LOST_REASON: RollingReason = 'DisruptionLockLost';

/** A condition this controller sets; its reason is one docs/troubleshooting.md explains. */
type RollingCondition = ConditionVerdict & { reason: RollingReason };

/** The Waiting condition, and when the wait it names began: a planner's Wait or Blocked step only (see waitingSince). */
interface Waiting {
  readonly condition: RollingCondition;
  readonly since?: string;
}

export interface StatusContext {
  readonly stored: ZookeeperRollingStatus | undefined;
  readonly generation: number | undefined;
  readonly now: Date;
  readonly workload: string;
}

export function nextStatus(verdict: RollingVerdict, context: StatusContext): ZookeeperRollingStatus {
  const { stored } = context;
  const base: ZookeeperRollingStatus = { ...stored, ...observedGeneration(context) };
  switch (verdict.kind) {
    case 'Invalid':
      // A handover record stays too.
      return withInvalidSpec(stored, verdict.message, context);
    case 'Unbound':
      return withConditions(base, context, bound(false, verdict.reason, verdict.message), { condition: waiting(verdict.reason, verdict.message) }, 'Blocked');
    case 'NoStatefulSet': {
      const message = `StatefulSet ${verdict.name} does not exist yet`;
      return withConditions(base, context, boundTo(context), { condition: waiting('StatefulSetMissing', message) }, stored?.phase ?? 'Idle');
    }
    case 'Planned':
      return planned(base, verdict, context);
  }
}

function planned(base: ZookeeperRollingStatus, verdict: Extract<RollingVerdict, { kind: 'Planned' }>, context: StatusContext): ZookeeperRollingStatus {
  const { plan, statefulSet, down, lock } = verdict;
  const { step, progress } = plan;
  const { stored, now } = context;
  const deleting = podsToDelete(verdict);
  const handover = recordedHandover(plan.handover, lock, stored);
  const recording = step.kind === 'RecordRestartRequest';
  const starting = (recording || progress.pending.length > 0) && !inRoll(stored?.phase);
  const progressed: ZookeeperRollingStatus = {
    ...base,
    targetRevision: statefulSet.updateRevision ?? stored?.targetRevision,
    ...(recording ? {} : { updatedReplicas: progress.updated.length, pendingReplicas: progress.pending.length }),
    ...(recording ? { observedRestartTrigger: step.trigger, restartRequestedAt: kubernetesTime(step.at) } : {}),
    ...(starting ? { startedAt: kubernetesTime(now), leaderRestarted: false, completedAt: undefined } : {}),
    ...(deleting.some((pod) => pod.leader) ? { leaderRestarted: true } : {}),
    ...(step.kind === 'Done' && stored?.startedAt !== undefined ? { completedAt: completedAt(stored, now) } : {}),
    currentPod: handover?.pod ?? currentPod(step, deleting, stored, down),
    handover: storedRecord(handover),
  };
  return withConditions(progressed, context, boundTo(context), waitingOf(step, lock, context), phaseOf(step, lock, progressed, stored));
}

/** Without the lock nothing new is recorded: a handover is recorded once this roll may start it, and kept once it is. */
function recordedHandover(planned: HandoverRecord | undefined, lock: LockOutcome, stored: ZookeeperRollingStatus | undefined): HandoverRecord | undefined {
  return lock.kind === 'held' || stored?.handover !== undefined ? planned : undefined;
}

function storedRecord(record: HandoverRecord | undefined): ZookeeperRollingStatus['handover'] {
  return record === undefined ? undefined : { pod: record.pod, server: formatServerLine(record.server), startedAt: kubernetesTime(record.startedAt) };
}

/** A roll that was started is completed once: its time stays while it stays Completed. */
function completedAt(stored: ZookeeperRollingStatus, now: Date): string {
  return stored.phase === 'Completed' && stored.completedAt !== undefined ? stored.completedAt : kubernetesTime(now);
}

function inRoll(phase: RollingPhase | undefined): boolean {
  return phase === 'Rolling' || phase === 'Blocked' || phase === 'Paused';
}

/** The pods being deleted; else the pods of the last step while any of them is still down. */
function currentPod(
  step: RollingStep,
  deleting: readonly PodToDelete[],
  stored: ZookeeperRollingStatus | undefined,
  down: readonly string[],
): string | undefined {
  if (deleting.length > 0) return deleting.map((pod) => pod.name).join(', ');
  if (step.kind === 'Done' || step.kind === 'Paused' || stored?.currentPod === undefined) return undefined;
  return stored.currentPod.split(', ').some((pod) => down.includes(pod)) ? stored.currentPod : undefined;
}

function phaseOf(step: RollingStep, lock: LockOutcome, next: ZookeeperRollingStatus, stored: ZookeeperRollingStatus | undefined): RollingPhase {
  if (lock.kind === 'busy' || lock.kind === 'lost') return 'Rolling';
  switch (step.kind) {
    case 'Done':
      return next.startedAt === undefined ? 'Idle' : 'Completed';
    case 'Paused':
      return 'Paused';
    case 'Blocked':
      return 'Blocked';
    case 'Wait':
      return waitingPhase(next, stored);
    case 'RecordRestartRequest':
    case 'DeletePods':
    case 'HandOverLeadership':
    case 'RestoreVoter':
      return 'Rolling';
  }
}

/** A wait is part of a roll while pods are pending or one is on its way back; otherwise the trait rests as it was. */
function waitingPhase(next: ZookeeperRollingStatus, stored: ZookeeperRollingStatus | undefined): RollingPhase {
  const rolling = (next.pendingReplicas ?? 0) > 0 || next.currentPod !== undefined;
  return rolling ? 'Rolling' : stored?.phase === 'Completed' ? 'Completed' : 'Idle';
}

function waitingOf(step: RollingStep, lock: LockOutcome, context: StatusContext): Waiting {
  if (lock.kind === 'lost') return { condition: waiting(LOCK_LOST_REASON, lostLockMessage(disruptionLeaseName(context.workload), lock)) };
  if (lock.kind === 'busy') {
    const operation = lock.operation === undefined ? '' : ` (${lock.operation})`;
    const message =
      `the disruption lock of ${context.workload} is held by ${lock.holder}${operation} since ${kubernetesTime(lock.since)}, ` +
      `until ${kubernetesTime(lock.expiresAt)} unless renewed; one disruptive operation per ensemble at a time`;
    return { condition: waiting(LOCK_BUSY_REASON, message) };
  }
  if (step.kind === 'Wait' || step.kind === 'Blocked') return { condition: waitingVerdict(step), since: waitingSince(step) };
  return { condition: notWaiting(step.kind === 'Done' || step.kind === 'Paused' ? step.kind : 'Proceeding') };
}

function withConditions(
  status: ZookeeperRollingStatus,
  context: StatusContext,
  boundCondition: RollingCondition,
  waiting: Waiting,
  phase: RollingPhase,
): ZookeeperRollingStatus {
  const verdicts = [readiness(boundCondition, waiting.condition, phase), boundCondition, waiting.condition];
  return { ...status, phase, conditions: setConditions(context.stored?.conditions, verdicts, context), waitingSince: waiting.since };
}

function readiness(boundCondition: RollingCondition, waitingCondition: RollingCondition, phase: RollingPhase): RollingCondition {
  const ready = (ok: boolean, reason: RollingReason, message: string): RollingCondition => ({
    type: READY_CONDITION_TYPE,
    status: ok ? 'True' : 'False',
    reason,
    message,
  });
  if (boundCondition.status !== 'True') return ready(false, boundCondition.reason, boundCondition.message);
  if (phase === 'Blocked' || waitingCondition.reason === LOCK_LOST_REASON) return ready(false, waitingCondition.reason, waitingCondition.message);
  return ready(true, phase, `${boundCondition.message}; phase ${phase}`);
}

function boundTo(context: StatusContext): RollingCondition {
  return bound(true, 'Bound', `bound to ZookeeperWorkload ${context.workload}; its StatefulSet uses the OnDelete update strategy`);
}

function bound(ok: boolean, reason: RollingReason, message: string): RollingCondition {
  return { type: BOUND_CONDITION_TYPE, status: ok ? 'True' : 'False', reason, message };
}

function waiting(reason: RollingReason, message: string): RollingCondition {
  return { type: WAITING_CONDITION_TYPE, status: 'True', reason, message };
}

function notWaiting(reason: RollingReason): RollingCondition {
  return { type: WAITING_CONDITION_TYPE, status: 'False', reason, message: 'nothing to wait for' };
}
