// The step record for status and the step clock: kept while the same member change goes on, restarted for a new one.
//
// The record never chooses the next action. It only carries `startedAt`, so a wait that outlasts the trait's step
// timeout turns into Blocked; when the record is lost the clock restarts, which only delays that report.
import { kubernetesTime, podOfMember, type ScalePhase, type ScaleStep } from '@zk-oam/apis';
import type { ScaleAction } from './action.js';
import type { ChangeInProgress } from './decision.js';

export interface StepSettlement {
  action: ScaleAction;
  step: ScaleStep | undefined;
}

export function settleStep(
  decided: { action: ScaleAction; change: ChangeInProgress },
  context: { recorded: ScaleStep | undefined; statefulSet: string | undefined; now: Date; stepTimeoutSeconds: number },
): StepSettlement {
  const step = stepRecord(decided.change, context);
  return { action: timedOut(decided.action, step, context) ?? decided.action, step };
}

function stepRecord(
  change: ChangeInProgress,
  context: { recorded: ScaleStep | undefined; statefulSet: string | undefined; now: Date },
): ScaleStep | undefined {
  if (change === 'unknown') {
    return context.recorded;
  }
  if (change === 'none' || context.statefulSet === undefined) {
    return undefined;
  }
  const recorded = context.recorded;
  const sameChange = recorded?.action === change.action && recorded.myid === change.myid;
  return {
    action: change.action,
    pod: podOfMember(context.statefulSet, change.myid),
    myid: change.myid,
    stage: change.stage,
    startedAt: sameChange ? recorded.startedAt : kubernetesTime(context.now),
  };
}

/** A wait inside a member change that has lasted longer than the step timeout. The change still proceeds when it can. */
function timedOut(
  action: ScaleAction,
  step: ScaleStep | undefined,
  context: { now: Date; stepTimeoutSeconds: number },
): ScaleAction | undefined {
  if (action.kind !== 'Wait' || step === undefined) {
    return undefined;
  }
  const started = Date.parse(step.startedAt);
  const elapsedSeconds = Number.isNaN(started) ? 0 : Math.floor((context.now.getTime() - started) / 1000);
  if (elapsedSeconds <= context.stepTimeoutSeconds) {
    return undefined;
  }
  return {
    kind: 'Blocked',
    reason: 'StepTimedOut',
    message:
      `${step.action === 'Add' ? 'adding' : 'removing'} ${step.pod} (myid ${step.myid}) has taken ${elapsedSeconds}s, ` +
      `longer than the step timeout of ${context.stepTimeoutSeconds}s: ${action.message}`,
  };
}

/** Blocked wins; then the direction of the change under way, else the direction of the target; Idle when done. */
export function phaseOf(action: ScaleAction, step: ScaleStep | undefined, sizes: { current: number | undefined; target: number }): ScalePhase {
  if (action.kind === 'Blocked') {
    return 'Blocked';
  }
  if (action.kind === 'Done') {
    return 'Idle';
  }
  if (step !== undefined) {
    return step.action === 'Add' ? 'ScalingUp' : 'ScalingDown';
  }
  if (sizes.current === undefined || sizes.current === sizes.target) {
    return 'Idle';
  }
  return sizes.target > sizes.current ? 'ScalingUp' : 'ScalingDown';
}
