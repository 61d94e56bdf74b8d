// The step timeout: when a wait began (pod timestamps, else the trait's status) and when it becomes Blocked.
import { kubernetesTime, type Condition } from '@zk-oam/apis';
import type { RollingPlanInput, RollingPlanStatus } from './input.js';
import type { BlockedReason, RollingStep, WaitReason } from './step.js';

/**
 * The controller keeps this condition True with the reason of every Wait or Blocked step (and False otherwise), and
 * status.waitingSince at the step's `since`: waits that pod timestamps cannot date (a missing pod, an unsynced member,
 * an unhealthy ensemble) are dated by it, so a restarted controller keeps counting from the same moment. Not by the
 * condition's lastTransitionTime: that one moves only when the status does, and one wait can follow another.
 */
export const WAITING_CONDITION_TYPE = 'Waiting';

type WaitingStep = Extract<RollingStep, { kind: 'Wait' | 'Blocked' }>;

/** Pod timestamps when they tell; else the stored wait if it is for the same reason; else the wait starts now. */
export function waitStartedAt(reason: BlockedReason, fromPods: Date | undefined, status: RollingPlanStatus | undefined, now: Date): Date {
  if (fromPods !== undefined) {
    return fromPods;
  }
  const waiting = status?.conditions?.find((condition) => condition.type === WAITING_CONDITION_TYPE);
  if (waiting?.status === 'True' && waiting.reason === reason) {
    // A status written before waitingSince existed dated the wait by the condition.
    const since = new Date(status?.waitingSince ?? waiting.lastTransitionTime);
    return Number.isNaN(since.getTime()) ? now : since;
  }
  return now;
}

/** Wait, or Blocked once the wait has lasted the step timeout: it never proceeds, it says why it stopped. */
export function waitOrBlock(
  wait: { reason: WaitReason; message: string; since: Date },
  stepTimeoutSeconds: number,
  now: Date,
): WaitingStep {
  const waitedSeconds = (now.getTime() - wait.since.getTime()) / 1000;
  if (waitedSeconds < stepTimeoutSeconds) {
    return { kind: 'Wait', ...wait };
  }
  const message = `${wait.message}; waiting since ${kubernetesTime(wait.since)}, longer than the step timeout of ${stepTimeoutSeconds}s`;
  return { kind: 'Blocked', ...wait, message };
}

/** A wait for `reason`, dated by the pods when they tell, else by the stored Waiting condition. */
export function waitFor(input: RollingPlanInput, reason: WaitReason, message: string, fromPods?: Date): WaitingStep {
  const since = waitStartedAt(reason, fromPods, input.status, input.now);
  return waitOrBlock({ reason, message, since }, input.spec.stepTimeoutSeconds, input.now);
}

/** The Waiting condition a Wait or Blocked step sets; its `since` goes to status.waitingSince (see waitingSince). */
export function waitingVerdict(step: WaitingStep): Pick<Condition, 'type' | 'status' | 'message'> & { reason: WaitingStep['reason'] } {
  return { type: WAITING_CONDITION_TYPE, status: 'True', reason: step.reason, message: step.message };
}

/** status.waitingSince for a Wait or Blocked step, in whole seconds as every Kubernetes time. */
export function waitingSince(step: WaitingStep): string {
  return kubernetesTime(step.since);
}
