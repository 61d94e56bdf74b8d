// The controller's status and announcements over whole rolls: the real planner on a simulated cluster, with the status
// the controller derives (not the planner test's stand-in) fed back into the next plan, as the controller does.
import { disruptionLockHolder, type ZookeeperRollingStatus } from '@zk-oam/apis';
import type { LockOutcome } from '@zk-oam/runtime';
import { describe, expect, it } from 'vitest';
import { downPods, planRollingStep } from '../plan/index.js';
import { applyStep, crash, newCluster, observe, recover, tick, withUpdateRevision, type SimulatedCluster } from '../plan/simulated-cluster.js';
import { factsOf, type Fact } from './announce.js';
import { needsLock } from './lock.js';
import { nextStatus } from './status.js';
import { podsToDelete, reconfigToRun, type RollingVerdict } from './verdict.js';

interface Run {
  cluster: SimulatedCluster;
  status: ZookeeperRollingStatus;
  facts: Fact[];
  phases: string[];
}

/** One reconcile: observe, plan, derive the status and facts, delete what the verdict allows, then time passes. */
function reconcileOnce(run: Run, lock: LockOutcome = { kind: 'held' }): Run {
  const input = { ...observe(run.cluster), status: run.status };
  const plan = planRollingStep(input);
  const verdict: RollingVerdict = { kind: 'Planned', plan, statefulSet: input.statefulSet, down: downPods(input), ensemble: input.ensemble, lock };
  const status = nextStatus(verdict, { stored: run.status, generation: 1, now: input.now, workload: 'zk' });
  const deleted = podsToDelete(verdict);
  const applied = deleted.length > 0 || reconfigToRun(verdict) !== undefined ? applyStep(run.cluster, plan.step) : run.cluster;
  return {
    cluster: tick({ ...applied, status }),
    status,
    facts: [...run.facts, ...factsOf(verdict, run.status, status, deleted)],
    phases: run.phases.at(-1) === status.phase ? run.phases : [...run.phases, status.phase ?? '-'],
  };
}

function until(run: Run, done: (run: Run) => boolean, change: (run: Run) => Run = (current) => current): Run {
  let current = run;
  for (let round = 0; round < 200 && !done(current); round += 1) current = reconcileOnce(change(current));
  return current;
}

function settled(cluster: SimulatedCluster): Run {
  return until({ cluster, status: {}, facts: [], phases: [] }, (run) => run.status.phase === 'Idle' && run.facts.length === 0 && run.phases.length > 0);
}

const natsOf = (facts: readonly Fact[], type: string): unknown[] => facts.flatMap((fact) => (fact.nats?.type === type ? [fact.nats.data] : []));

describe('the status over a template roll of 5 members, leader zk-2', () => {
  const idle = settled(newCluster({ members: 5, leaderOrdinal: 2 }));
  const rolled = until({ ...idle, cluster: withUpdateRevision(idle.cluster, 'zk-new') }, (run) => run.status.phase === 'Completed');

  it('is Idle before any roll, then Rolling, then Completed with every pod updated and the leader restarted', () => {
    expect(idle.status).toMatchObject({ phase: 'Idle', updatedReplicas: 5, pendingReplicas: 0 });
    expect(rolled.phases).toEqual(['Idle', 'Rolling', 'Completed']);
    expect(rolled.status).toMatchObject({ targetRevision: 'zk-new', updatedReplicas: 5, pendingReplicas: 0, leaderRestarted: true });
    expect(rolled.status.currentPod).toBeUndefined();
    expect(rolled.status.completedAt).toBeDefined();
  });

  it('announces each step started and completed, the leader last, and the completion once', () => {
    const order = [
      { pod: 'zk-4', leader: false },
      { pod: 'zk-3', leader: false },
      { pod: 'zk-1', leader: false },
      { pod: 'zk-0', leader: false },
      { pod: 'zk-2', leader: true },
    ];
    expect(natsOf(rolled.facts, 'RollingStepStarted')).toEqual(order);
    expect(natsOf(rolled.facts, 'RollingStepCompleted')).toEqual(order);
    expect(natsOf(rolled.facts, 'RollingCompleted')).toHaveLength(1);
    expect(rolled.facts.map((fact) => fact.kubernetes.reason)).toEqual([...order.flatMap(() => ['RestartingPod', 'PodRestarted']), 'RollingCompleted']);
  });

  it('stays Idle, writing nothing new, when it is reconciled again before any roll', () => {
    const again = reconcileOnce(reconcileOnce(idle));
    expect(again.status).toEqual(idle.status);
    expect(idle.status.completedAt).toBeUndefined();
  });

  it('stays Completed, writing nothing new, when it is reconciled again', () => {
    const again = reconcileOnce(reconcileOnce(rolled));
    expect(again.status).toEqual(rolled.status);
    expect(again.facts).toEqual(rolled.facts);
  });
});

describe('the status over a roll that hands leadership over, 5 members, leader zk-2', () => {
  const idle = settled(newCluster({ members: 5, leaderOrdinal: 2, spec: { leaderHandover: 'Reconfigure' } }));
  const statuses: ZookeeperRollingStatus[] = [];
  const rolled = until(
    { ...idle, cluster: withUpdateRevision(idle.cluster, 'zk-new') },
    (run) => run.status.phase === 'Completed',
    (run) => {
      statuses.push(run.status);
      return run;
    },
  );
  const during = statuses.filter((status) => status.handover !== undefined);

  it('records the handover, with the server line it restores, while the former leader is out, and names it as the pod in progress', () => {
    expect(during.length).toBeGreaterThan(2);
    for (const status of during) {
      expect(status.handover).toMatchObject({ pod: 'zk-2', server: 'server.3=127.0.1.3:2888:3888:participant;127.0.1.3:2181' });
      expect(status.currentPod).toBe('zk-2');
      expect(status.phase).toBe('Rolling');
    }
    expect(new Set(during.map((status) => status.handover?.startedAt)).size).toBe(1);
  });

  it('drops the record once the former leader is a voter again, and completes with every voter back', () => {
    expect(rolled.status.handover).toBeUndefined();
    expect(rolled.status).toMatchObject({ phase: 'Completed', updatedReplicas: 5, leaderRestarted: true });
    expect(rolled.cluster.voters).toEqual([1, 2, 3, 4, 5]);
    expect(rolled.cluster.elections).toBe(0);
  });

  it('announces the handover and the restore around the former leader\'s restart', () => {
    const reasons = rolled.facts.map((fact) => fact.kubernetes.reason);
    expect(reasons.slice(-5)).toEqual(['LeaderHandedOver', 'RestartingPod', 'PodRestarted', 'VoterRestored', 'RollingCompleted']);
    expect(rolled.facts.find((fact) => fact.kubernetes.reason === 'LeaderHandedOver')?.kubernetes.note).toBe(
      'Leader zk-2 left the voters by reconfig and zk-4 (member 5) leads without an election; zk-2 restarts as a non-voter and goes back in once synced (4 voters meanwhile)',
    );
    expect(natsOf(rolled.facts, 'RollingStepStarted').at(-1)).toEqual({ pod: 'zk-2', leader: true });
    expect(natsOf(rolled.facts, 'RollingStepCompleted').at(-1)).toEqual({ pod: 'zk-2', leader: true });
  });

  it('holds the lock for the whole handover, waits included', () => {
    const wait = { step: { kind: 'Wait' as const, reason: 'LeadershipMoving' as const, message: '', since: new Date() }, progress: { updated: [], pending: [] } };
    const handover = { pod: 'zk-2', server: { id: 3, host: 'h', quorumPort: 2888, electionPort: 3888, role: 'participant' as const, clientAddress: 'h', clientPort: 2181 }, startedAt: new Date() };
    expect(needsLock({ ...wait, handover }, {})).toBe(true);
    expect(needsLock(wait, {})).toBe(false);
  });
});

describe('the conditions\' transition times', () => {
  const context = (stored: ZookeeperRollingStatus | undefined, now: string) => ({ stored, generation: 1, now: new Date(now), workload: 'zk' });
  const read = (status: ZookeeperRollingStatus, field: 'status' | 'reason' | 'lastTransitionTime') =>
    Object.fromEntries((status.conditions ?? []).map((condition) => [condition.type, condition[field]]));

  it('move only when a condition\'s status changes, never with its reason or message alone, in whole seconds', () => {
    const unbound = nextStatus({ kind: 'Unbound', reason: 'WorkloadNotFound', message: 'ZookeeperWorkload zk does not exist' }, context(undefined, '2026-01-01T00:00:00.250Z'));
    const first = '2026-01-01T00:00:00Z';
    expect(read(unbound, 'lastTransitionTime')).toEqual({ Ready: first, Bound: first, Waiting: first });

    const refused = nextStatus({ kind: 'Unbound', reason: 'TlsOnlyUnsupported', message: 'the workload serves clients over TLS only' }, context(unbound, '2026-01-01T00:01:00Z'));
    expect(read(refused, 'reason')).toEqual({ Ready: 'TlsOnlyUnsupported', Bound: 'TlsOnlyUnsupported', Waiting: 'TlsOnlyUnsupported' });
    expect(read(refused, 'lastTransitionTime')).toEqual({ Ready: first, Bound: first, Waiting: first });

    const bound = nextStatus({ kind: 'NoStatefulSet', name: 'zk' }, context(refused, '2026-01-01T00:02:00.999Z'));
    expect(read(bound, 'status')).toEqual({ Ready: 'False', Bound: 'True', Waiting: 'True' });
    expect(read(bound, 'reason')).toEqual({ Ready: 'StatefulSetMissing', Bound: 'Bound', Waiting: 'StatefulSetMissing' });
    expect(read(bound, 'lastTransitionTime')).toEqual({ Ready: first, Bound: '2026-01-01T00:02:00Z', Waiting: first });
  });

  it('keep the Waiting condition\'s time through a chain of waits, while waitingSince dates each wait for the step timeout', () => {
    const idle = settled(newCluster({ members: 3, leaderOrdinal: 0 }));
    const statuses: ZookeeperRollingStatus[] = [];
    until({ ...idle, cluster: withUpdateRevision(idle.cluster, 'zk-new') }, (run) => run.status.phase === 'Completed', (run) => {
      statuses.push(run.status);
      return run;
    });
    const waiting = (status: ZookeeperRollingStatus | undefined) => status?.conditions?.find((condition) => condition.type === 'Waiting');
    const chained = statuses.slice(1).flatMap((status, index) => {
      const [before, after] = [waiting(statuses[index]), waiting(status)];
      return before?.status === 'True' && after?.status === 'True' && before.reason !== after.reason ? [{ before, after, status }] : [];
    });
    expect(chained.length).toBeGreaterThan(1);
    for (const { before, after } of chained) expect(after.lastTransitionTime).toBe(before.lastTransitionTime);
    for (const status of statuses) expect(status.waitingSince !== undefined).toBe(waiting(status)?.status === 'True');
    expect(new Set(chained.map(({ status }) => status.waitingSince)).size).toBe(chained.length);
  });
});

describe('the times of the status', () => {
  it('are whole seconds, as Kubernetes writes them, when the clock is not', () => {
    const idle = settled(newCluster({ members: 3, leaderOrdinal: 0, spec: { leaderHandover: 'Reconfigure' } }));
    const outdated = withUpdateRevision(idle.cluster, 'zk-new');
    const statuses: ZookeeperRollingStatus[] = [];
    const rolled = until({ ...idle, cluster: { ...outdated, now: new Date(outdated.now.getTime() + 250) } }, (run) => run.status.phase === 'Completed', (run) => {
      statuses.push(run.status);
      return run;
    });
    const times = [...statuses, rolled.status].flatMap((status) => [
      status.startedAt,
      status.completedAt,
      status.waitingSince,
      status.handover?.startedAt,
      ...(status.conditions ?? []).map((condition) => condition.lastTransitionTime),
    ]);
    const written = times.filter((time) => time !== undefined);
    expect(statuses.some((status) => status.handover !== undefined) && statuses.some((status) => status.waitingSince !== undefined)).toBe(true);
    expect(rolled.status.completedAt).toBeDefined();
    expect(written.filter((time) => !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/.test(time))).toEqual([]);
  });
});

describe('the status while the roll cannot go on', () => {
  const idle = settled(newCluster({ members: 5, leaderOrdinal: 0 }));
  const outdated = { ...idle, cluster: withUpdateRevision(idle.cluster, 'zk-new') };

  it('names the holder of a busy lock, since when and until when in whole seconds, and deletes nothing', () => {
    const busy: LockOutcome = { kind: 'busy', holder: disruptionLockHolder('scale', 'grow'), since: new Date('2026-01-01T01:00:00.480Z'), expiresAt: new Date('2026-01-01T01:00:20.480Z'), operation: 'scale 3 -> 5' };
    const waiting = reconcileOnce(outdated, busy);
    expect(waiting.status.phase).toBe('Rolling');
    expect(waiting.status.currentPod).toBeUndefined();
    expect(waiting.status.conditions?.find((condition) => condition.type === 'Waiting')).toMatchObject({
      status: 'True',
      reason: 'DisruptionLockBusy',
      message: expect.stringContaining('held by scale/grow (scale 3 -> 5) since 2026-01-01T01:00:00Z, until 2026-01-01T01:00:20Z unless renewed') as unknown,
    });
    expect(waiting.facts).toEqual([]);
    expect(waiting.cluster.slots.every((slot) => slot.stage === 'up')).toBe(true);
  });

  it('reports Blocked once past the step timeout with a member down, announces it once, and completes after it is back', () => {
    const started = reconcileOnce(outdated);
    const crashed = { ...started, cluster: { ...crash(started.cluster, 1), spec: { ...started.cluster.spec, stepTimeoutSeconds: 10 } } };
    const blocked = until(crashed, (run) => run.status.phase === 'Blocked');
    const stillBlocked = reconcileOnce(reconcileOnce(blocked));
    expect(blocked.status.conditions?.find((condition) => condition.type === 'Waiting')).toMatchObject({ reason: 'PodNotReady', message: expect.stringContaining('pod zk-1 is not ready') as unknown });
    expect(natsOf(stillBlocked.facts, 'RollingBlocked')).toHaveLength(1);
    const recovered = until({ ...stillBlocked, cluster: recover(stillBlocked.cluster, 1) }, (run) => run.status.phase === 'Completed');
    expect(recovered.status).toMatchObject({ updatedReplicas: 5, leaderRestarted: true });
  });

  it('reports a trait that cannot bind as Blocked with the binding reason, without a NATS event', () => {
    const verdict: RollingVerdict = { kind: 'Unbound', reason: 'WorkloadNotFound', message: 'ZookeeperWorkload zk does not exist in this namespace; waiting for it' };
    const status = nextStatus(verdict, { stored: undefined, generation: 1, now: new Date('2026-01-01T00:00:00Z'), workload: 'zk' });
    expect(status.phase).toBe('Blocked');
    expect(status.conditions?.find((condition) => condition.type === 'Bound')).toMatchObject({ status: 'False', reason: 'WorkloadNotFound' });
    expect(factsOf(verdict, undefined, status, []).map((fact) => [fact.kubernetes.reason, fact.nats])).toEqual([['WorkloadNotFound', undefined]]);
  });
});

describe('the disruption lock', () => {
  const cluster = withUpdateRevision(newCluster({ members: 3, leaderOrdinal: 0 }), 'zk-new');
  const plan = planRollingStep(observe(cluster));

  it('is needed to delete, and while pods are pending or one of ours is on its way back', () => {
    expect(plan.step.kind).toBe('DeletePods');
    expect(needsLock(plan, undefined)).toBe(true);
    const wait = { ...plan, step: { kind: 'Wait' as const, reason: 'PodTerminating' as const, message: '', since: new Date() } };
    expect(needsLock({ ...wait, progress: { updated: ['zk-0', 'zk-1', 'zk-2'], pending: [] } }, { currentPod: 'zk-2' })).toBe(true);
    expect(needsLock({ ...wait, progress: { updated: ['zk-0', 'zk-1', 'zk-2'], pending: [] } }, {})).toBe(false);
  });

  it('is not needed when done, paused or recording a restart request', () => {
    expect(needsLock({ ...plan, step: { kind: 'Done' } }, {})).toBe(false);
    expect(needsLock({ ...plan, step: { kind: 'Paused', pending: ['zk-1'] } }, {})).toBe(false);
    expect(needsLock({ ...plan, step: { kind: 'RecordRestartRequest', trigger: 'a', at: new Date() } }, {})).toBe(false);
  });
});
