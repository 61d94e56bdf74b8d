// The step timeout: when a wait began (pod timestamps, else the trait's Waiting condition) and when it becomes Blocked.
import type { Condition } from '@zk-oam/apis';
import type { RollingPlanInput, RollingPlanStatus } from './input.js';
import type { BlockedReason, RollingStep, WaitReason } from './step.js';

/**
 * The controller keeps this condition True with the reason and `since` of every Wait or Blocked step (and False
 * otherwise): waits that pod timestamps cannot date (a missing pod, an unsynced member, an unhealthy ensemble) are
 * dated by its lastTransitionTime, so a restarted controller keeps counting from the same moment.
 */
export const WAITING_CONDITION_TYPE = 'Waiting';

type WaitingStep = Extract<RollingStep, { kind: 'Wait' | 'Blocked' }>;

/** Pod timestamps when they tell; else the Waiting condition if it waits for the same reason; else the wait starts now. */
export function waitStartedAt(reason: BlockedReason, fromPods: Date | undefined, status: RollingPlanStatus | undefined, now: Date): Date {
  if (fromPods !== undefined) {
    return fromPods;
  }
  const waiting = status?.conditions?.find((condition) => condition.type === WAITING_CONDITION_TYPE);
  if (waiting?.status === 'True' && waiting.reason === reason) {
    const since = new Date(waiting.lastTransitionTime);
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
  const message = `${wait.message}; waiting since ${wait.since.toISOString()}, longer than the step timeout of ${stepTimeoutSeconds}s`;
  return { kind: 'Blocked', ...wait, message };
}

/** A wait for `reason`, dated by the pods when they tell, else by the stored Waiting condition. */
export function waitFor(input: RollingPlanInput, reason: WaitReason, message: string, fromPods?: Date): WaitingStep {
  const since = waitStartedAt(reason, fromPods, input.status, input.now);
  return waitOrBlock({ reason, message, since }, input.spec.stepTimeoutSeconds, input.now);
}

/** The Waiting condition for a Wait or Blocked step, dated by the step's `since`. */
export function waitingCondition(step: WaitingStep, observedGeneration?: number): Condition & { reason: WaitingStep['reason'] } {
  return {
    type: WAITING_CONDITION_TYPE,
    status: 'True',
    reason: step.reason,
    message: step.message,
    ...(observedGeneration === undefined ? {} : { observedGeneration }),
    lastTransitionTime: step.since.toISOString(),
  };
}
