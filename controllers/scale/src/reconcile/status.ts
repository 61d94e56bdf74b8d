// The trait's status from what this reconcile concluded (pure): phase, sizes, the operation and step under way, and
// the Ready / Progressing / Blocked conditions a person reads, set by the kit's setConditions.
import type { Condition, ScalePhase, ScaleReason, ZookeeperScaleStatus } from '@zk-oam/apis';
import { setConditions, type BusyLockInfo, type ConditionContext, type ConditionVerdict } from '@zk-oam/runtime';
import type { ScalePlan } from '../plan/index.js';
import type { Finding } from './verdict.js';

/** A condition before its time is stamped; its reason is one docs/troubleshooting.md explains. */
type Verdict = ConditionVerdict & { reason: ScaleReason };

export function nextStatus(
  previous: ZookeeperScaleStatus | undefined,
  finding: Finding,
  context: ConditionContext,
): ZookeeperScaleStatus {
  const base = { ...previous, ...(context.generation === undefined ? {} : { observedGeneration: context.generation }) };
  const stamp = (verdicts: Verdict[]): Condition[] => setConditions(previous?.conditions, verdicts, context);
  switch (finding.kind) {
    case 'Unbound':
      return {
        ...base,
        phase: 'Blocked',
        conditions: stamp([
          { type: 'Ready', status: 'False', reason: finding.reason, message: finding.message },
          { type: 'Progressing', status: 'False', reason: finding.reason, message: finding.message },
          { type: 'Blocked', status: 'True', reason: finding.reason, message: finding.message },
        ]),
      };
    case 'Planned': {
      const { plan, lock } = finding;
      if (lock.kind === 'busy' || lock.kind === 'lost') {
        return { ...sizes(base, plan, finding.selector), conditions: stamp(lockBusyVerdicts(finding.lease, lock)) };
      }
      const { step: _previousStep, operation: _previousOperation, ...rest } = sizes(base, plan, finding.selector);
      const operation = operationOf(previous, plan, context.now);
      return {
        ...rest,
        phase: plan.phase,
        ...(operation === undefined ? {} : { operation }),
        ...(plan.step === undefined ? {} : { step: plan.step }),
        conditions: stamp(planVerdicts(plan)),
      };
    }
  }
}

/** Another operation holds the lock: phase and step stay as they were, and nothing is blocked. */
function lockBusyVerdicts(lease: string, lock: BusyLockInfo): Verdict[] {
  const operation = lock.operation === undefined ? '' : ` (${lock.operation})`;
  const message =
    `waiting for the disruption lock ${lease}: held by ${lock.holder}${operation} since ` +
    `${lock.since.toISOString()}; one disruptive operation per ensemble at a time`;
  return [
    { type: 'Ready', status: 'False', reason: 'WaitingForDisruptionLock', message },
    { type: 'Progressing', status: 'True', reason: 'WaitingForDisruptionLock', message },
    { type: 'Blocked', status: 'False', reason: 'NotBlocked', message: 'nothing blocks the scaling' },
  ];
}

function sizes(base: ZookeeperScaleStatus, plan: ScalePlan, selector: string | undefined): ZookeeperScaleStatus {
  return {
    ...base,
    ...(plan.current === undefined ? {} : { replicas: plan.current }),
    targetReplicas: plan.target,
    ...(selector === undefined ? {} : { selector }),
  };
}

/** An operation runs from the first step away from Idle until Done; a change of direction starts a new one. */
function operationOf(previous: ZookeeperScaleStatus | undefined, plan: ScalePlan, now: Date): ZookeeperScaleStatus['operation'] {
  if (plan.action.kind === 'Done') return undefined;
  const kept = previous?.operation;
  if (plan.phase === 'Blocked' || plan.phase === 'Failed') return kept;
  if (plan.phase === 'Idle') return undefined;
  if (kept !== undefined && (previous?.phase === plan.phase || previous?.phase === 'Blocked')) return kept;
  return plan.current === undefined ? undefined : { from: plan.current, startedAt: now.toISOString() };
}

function planVerdicts(plan: ScalePlan): Verdict[] {
  const { action } = plan;
  const size = plan.current === undefined ? 'an unknown number of' : String(plan.current);
  const notBlocked: Verdict = { type: 'Blocked', status: 'False', reason: 'NotBlocked', message: 'nothing blocks the scaling' };
  switch (action.kind) {
    case 'Done': {
      const message = `${size} members in the committed config, as asked`;
      return [
        { type: 'Ready', status: 'True', reason: 'AtTarget', message },
        { type: 'Progressing', status: 'False', reason: 'Idle', message },
        notBlocked,
      ];
    }
    case 'Blocked':
      return [
        { type: 'Ready', status: 'False', reason: action.reason, message: action.message },
        { type: 'Progressing', status: 'False', reason: action.reason, message: action.message },
        { type: 'Blocked', status: 'True', reason: action.reason, message: action.message },
      ];
    case 'Wait':
      return progressing(plan.phase, action.reason, action.message, notBlocked);
    case 'RaiseReplicas':
    case 'ReconfigAdd':
    case 'ReconfigRemove':
    case 'LowerReplicas':
    case 'DeleteVolume':
      return progressing(plan.phase, action.kind, `${action.kind} (member ${action.member}) towards ${plan.target} members`, notBlocked);
  }
}

/** Ready's reason while a step is under way or awaited: the direction, or Idle at the target size (never Blocked here). */
function progressing(phase: ScalePhase, reason: ScaleReason, message: string, notBlocked: Verdict): Verdict[] {
  return [
    { type: 'Ready', status: 'False', reason: phase === 'ScalingUp' || phase === 'ScalingDown' ? phase : 'Idle', message },
    { type: 'Progressing', status: 'True', reason, message },
    notBlocked,
  ];
}
