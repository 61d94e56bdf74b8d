// The trait's status from a verdict: phase, sizes, the operation's start, the step, and the three conditions.
import { disruptionLeaseName, disruptionLockHolder, type ZookeeperScaleStatus } from '@zk-oam/apis';
import { zxidFromValue } from '@zk-oam/zookeeper';
import { describe, expect, it } from 'vitest';
import type { ScalePlan } from '../plan/index.js';
import { nextStatus } from './status.js';
import type { Finding } from './verdict.js';

const now = new Date('2026-01-01T00:00:10.500Z');
const earlier = '2026-01-01T00:00:00Z';
const context = { generation: 4, now };

function plan(overrides: Partial<ScalePlan>): ScalePlan {
  return { action: { kind: 'Done' }, phase: 'Idle', current: 3, target: 3, step: undefined, ...overrides };
}

/** A verdict of this plan, taken under the lock. */
function planned(plan: ScalePlan, selector: string | undefined): Finding {
  return { kind: 'Planned', plan, selector, lease: disruptionLeaseName('zk'), lock: { kind: 'held' } };
}

const raising: ScalePlan = plan({
  action: { kind: 'RaiseReplicas', to: 4, member: 4 },
  phase: 'ScalingUp',
  target: 5,
  step: { action: 'Add', pod: 'zk-3', myid: 4, stage: 'StartingMember', startedAt: now.toISOString() },
});

function conditions(status: ZookeeperScaleStatus): Record<string, string> {
  return Object.fromEntries((status.conditions ?? []).map((condition) => [condition.type, `${condition.status}/${condition.reason}`]));
}

describe('nextStatus', () => {
  it('reports Idle and Ready at the target, without operation or step', () => {
    const status = nextStatus(undefined, planned(plan({}), 'a=b'), context);
    expect(status).toMatchObject({ observedGeneration: 4, phase: 'Idle', replicas: 3, targetReplicas: 3, selector: 'a=b' });
    expect(status.operation).toBeUndefined();
    expect(status.step).toBeUndefined();
    expect(conditions(status)).toEqual({ Ready: 'True/AtTarget', Progressing: 'False/Idle', Blocked: 'False/NotBlocked' });
    expect(status.conditions?.[0]?.lastTransitionTime).toBe('2026-01-01T00:00:10Z');
  });

  it('starts an operation from the committed size on the first step, and keeps it while the direction holds', () => {
    const first = nextStatus(undefined, planned(raising, undefined), context);
    // In whole seconds, as Kubernetes writes every time of a status.
    expect(first.operation).toEqual({ from: 3, startedAt: '2026-01-01T00:00:10Z' });
    expect(first.step).toEqual(raising.step);
    expect(conditions(first)).toEqual({ Ready: 'False/ScalingUp', Progressing: 'True/RaiseReplicas', Blocked: 'False/NotBlocked' });
    const later = nextStatus(first, planned({ ...raising, current: 4 }, undefined), { ...context, now: new Date('2026-01-01T00:01:00Z') });
    expect(later.operation).toEqual(first.operation);
  });

  it('starts a new operation when the direction changes, and drops it when done', () => {
    const up = nextStatus(undefined, planned(raising, undefined), context);
    const down = nextStatus(up, planned(plan({ action: { kind: 'ReconfigRemove', member: 4, fromVersion: zxidFromValue(1n) }, phase: 'ScalingDown', current: 4, target: 3 }), undefined), context);
    expect(down.operation?.from).toBe(4);
    const idle = nextStatus(down, planned(plan({}), undefined), context);
    expect(idle.operation).toBeUndefined();
    expect(idle.step).toBeUndefined();
  });

  it('reports Blocked with the reason in Ready, Progressing and Blocked, keeping the operation', () => {
    const up = nextStatus(undefined, planned(raising, undefined), context);
    const blocked = plan({ action: { kind: 'Blocked', reason: 'QuorumAtRisk', message: 'not removing member 3' }, phase: 'Blocked', target: 1 });
    const status = nextStatus(up, planned(blocked, undefined), context);
    expect(status.phase).toBe('Blocked');
    expect(status.operation).toEqual(up.operation);
    expect(conditions(status)).toEqual({ Ready: 'False/QuorumAtRisk', Progressing: 'False/QuorumAtRisk', Blocked: 'True/QuorumAtRisk' });
    expect(status.conditions?.find((condition) => condition.type === 'Blocked')?.message).toBe('not removing member 3');
  });

  it('keeps phase and step while another operation holds the disruption lock, saying who and since when (to the second)', () => {
    const previous: ZookeeperScaleStatus = { phase: 'Idle', replicas: 3, targetReplicas: 3 };
    const lock = { holder: disruptionLockHolder('rolling', 'zk-roll'), since: new Date('2026-01-01T00:00:00.750Z'), expiresAt: new Date('2026-01-01T00:00:30.750Z'), operation: 'restart zk' };
    const status = nextStatus(previous, { kind: 'Planned', plan: raising, selector: undefined, lock: { kind: 'busy', ...lock }, lease: disruptionLeaseName('zk') }, context);
    expect(status).toMatchObject({ phase: 'Idle', replicas: 3, targetReplicas: 5 });
    expect(status.step).toBeUndefined();
    expect(conditions(status).Progressing).toBe('True/WaitingForDisruptionLock');
    expect(status.conditions?.find((condition) => condition.type === 'Progressing')?.message).toBe(
      'waiting for the disruption lock zk-disruption: held by rolling/zk-roll (restart zk) since 2026-01-01T00:00:00Z; one disruptive operation per ensemble at a time',
    );
  });

  it('reports a binding problem as Blocked with its reason', () => {
    const status = nextStatus(undefined, { kind: 'Unbound', reason: 'WorkloadNotFound', message: 'ZookeeperWorkload zk does not exist' }, context);
    expect(status.phase).toBe('Blocked');
    expect(conditions(status).Blocked).toBe('True/WorkloadNotFound');
  });

  it('keeps a condition\'s transition time while its status holds', () => {
    const first = nextStatus(undefined, planned(raising, undefined), { ...context, now: new Date(earlier) });
    const second = nextStatus(first, planned(raising, undefined), context);
    expect(second.conditions?.map((condition) => condition.lastTransitionTime)).toEqual(first.conditions?.map((condition) => condition.lastTransitionTime));
  });

  it('keeps it when only the reason changes, and moves it with the status', () => {
    const up = nextStatus(undefined, planned(raising, undefined), { ...context, now: new Date(earlier) });
    const blocked = plan({ action: { kind: 'Blocked', reason: 'QuorumAtRisk', message: 'not removing member 3' }, phase: 'Blocked', target: 1 });
    const status = nextStatus(up, planned(blocked, undefined), context);
    const times = Object.fromEntries((status.conditions ?? []).map((condition) => [condition.type, condition.lastTransitionTime]));
    expect(conditions(status)).toEqual({ Ready: 'False/QuorumAtRisk', Progressing: 'False/QuorumAtRisk', Blocked: 'True/QuorumAtRisk' });
    expect(times).toEqual({ Ready: earlier, Progressing: '2026-01-01T00:00:10Z', Blocked: '2026-01-01T00:00:10Z' });
  });
});
