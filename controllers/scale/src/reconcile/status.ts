// The trait's status from what this reconcile concluded (pure): phase, sizes, the operation and step under way, and
// the Ready / Progressing / Blocked conditions a person reads, set by the kit's setConditions.
import { kubernetesTime, type Condition, type ScalePhase, type ScaleReason, type ZookeeperScaleStatus } from '@zk-oam/apis';
import { lostLockMessage, observedGeneration, setConditions, withInvalidSpec, type BusyLockInfo, type ConditionContext, type ConditionVerdict, type LockOutcome } from '@zk-oam/runtime';
import type { ScalePlan } from '../plan/index.js';
import type { Finding } from './verdict.js';

/** A condition before its time is stamped; its reason is one docs/troubleshooting.md explains. */
type Verdict = ConditionVerdict & { reason: ScaleReason };

export function nextStatus(
  previous: ZookeeperScaleStatus | undefined,
  finding: Finding,
  context: ConditionContext,
): ZookeeperScaleStatus {
  const base = { ...previous, ...observedGeneration(context) };
  const stamp = (verdicts: Verdict[]): Condition[] => setConditions(previous?.conditions, verdicts, context);
  switch (finding.kind) {
    case 'Invalid':
      return withInvalidSpec(previous, finding.message, context);
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
        return { ...sizes(base, plan, finding.selector), conditions: stamp(lockElsewhereVerdicts(finding.lease, lock)) };
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

/** Nothing blocks the scaling: what it waits for clears by itself. */
const NOT_BLOCKED: Verdict = { type: 'Blocked', status: 'False', reason: 'NotBlocked', message: 'nothing blocks the scaling' };

/**
 * Another operation holds the lock: phase and step stay as they were, and nothing is blocked. Taken while a step of
 * this operation was under way (lost), it is a reason a person hears of (announce.ts).
 */
function lockElsewhereVerdicts(lease: string, lock: Extract<LockOutcome, { kind: 'busy' | 'lost' }>): Verdict[] {
  const lost = lock.kind === 'lost';
  const reason: ScaleReason = lost ? 'DisruptionLockLost' : 'WaitingForDisruptionLock';
  const message = lost ? lostLockMessage(lease, lock) : busyMessage(lease, lock);
  return [
    { type: 'Ready', status: 'False', reason, message },
    { type: 'Progressing', status: 'True', reason, message },
    NOT_BLOCKED,
  ];
}

function busyMessage(lease: string, lock: BusyLockInfo): string {
  const operation = lock.operation === undefined ? '' : ` (${lock.operation})`;
  return `waiting for the disruption lock ${lease}: held by ${lock.holder}${operation} since ${kubernetesTime(lock.since)}; one disruptive operation per ensemble at a time`;
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
  return plan.current === undefined ? undefined : { from: plan.current, startedAt: kubernetesTime(now) };
}

function planVerdicts(plan: ScalePlan): Verdict[] {
  const { action } = plan;
  const size = plan.current === undefined ? 'an unknown number of' : String(plan.current);
  switch (action.kind) {
    case 'Done': {
      const message = `${size} members in the committed config, as asked`;
      return [
        { type: 'Ready', status: 'True', reason: 'AtTarget', message },
        { type: 'Progressing', status: 'False', reason: 'Idle', message },
        NOT_BLOCKED,
      ];
    }
    case 'Blocked':
      return [
        { type: 'Ready', status: 'False', reason: action.reason, message: action.message },
        { type: 'Progressing', status: 'False', reason: action.reason, message: action.message },
        { type: 'Blocked', status: 'True', reason: action.reason, message: action.message },
      ];
    case 'Wait':
      return progressing(plan.phase, action.reason, action.message);
    case 'RaiseReplicas':
    case 'ReconfigAdd':
    case 'ReconfigRemove':
    case 'LowerReplicas':
    case 'DeleteVolume':
      return progressing(plan.phase, action.kind, `${action.kind} (member ${action.member}) towards ${plan.target} members`);
  }
}

/** Ready's reason while a step is under way or awaited: the direction, or Idle at the target size (never Blocked here). */
function progressing(phase: ScalePhase, reason: ScaleReason, message: string): Verdict[] {
  return [
    { type: 'Ready', status: 'False', reason: phase === 'ScalingUp' || phase === 'ScalingDown' ? phase : 'Idle', message },
    { type: 'Progressing', status: 'True', reason, message },
    NOT_BLOCKED,
  ];
}
