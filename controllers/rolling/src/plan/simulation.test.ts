// Whole rolls, planned step by step against a simulated StatefulSet and ensemble, with the invariants checked at every state.
import { describe, expect, it } from 'vitest';
import { planRollingStep } from './plan.js';
import {
  applyStep,
  crash,
  membersDown,
  newCluster,
  observe,
  recordHandover,
  recover,
  tick,
  withSpec,
  withUpdateRevision,
  type SimulatedCluster,
} from './simulated-cluster.js';
import type { RollingStep, RollingStepKind } from './step.js';

interface RollOptions {
  /** Apply only this many pods of each DeletePods step, as a controller killed in the middle of a batch would. */
  deleteOnly?: number;
  /** Called on every state before planning; may change the world (crash a member, pause, ...). */
  world?: (cluster: SimulatedCluster, steps: readonly RollingStep[]) => SimulatedCluster;
  maxUnavailable?: number;
  /** The first step of this kind is planned and its status written, but not carried out: the controller died there. */
  dieBefore?: RollingStepKind;
}

interface Roll {
  cluster: SimulatedCluster;
  steps: RollingStep[];
  mostDown: number;
}

/** Plans and applies until Done; time passes on every step but a deletion, so each stage of a restart is planned on. */
function rollToDone(start: SimulatedCluster, options: RollOptions = {}): Roll {
  let cluster = start;
  const steps: RollingStep[] = [];
  let mostDown = 0;
  for (let round = 0; round < 400; round += 1) {
    cluster = options.world?.(cluster, steps) ?? cluster;
    const input = observe(cluster);
    const { step, handover } = planRollingStep(input);
    expect(planRollingStep(observe(cluster)).step, 'planning the same state again').toEqual(step);
    expect(input.ensemble.hasQuorum, `quorum at round ${round}`).toBe(true);
    mostDown = Math.max(mostDown, membersDown(cluster));
    steps.push(step);
    cluster = recordHandover(cluster, handover);
    if (step.kind === 'Done') {
      return { cluster, steps, mostDown };
    }
    if (step.kind === 'DeletePods') {
      const terminating = input.pods.filter((pod) => pod.deletion !== undefined).map((pod) => pod.name);
      expect(step.pods.map((pod) => pod.name).filter((name) => terminating.includes(name))).toEqual([]);
    }
    const dies = options.dieBefore === step.kind && !steps.slice(0, -1).some((earlier) => earlier.kind === step.kind);
    cluster = dies ? cluster : applyStep(cluster, step, step.kind === 'DeletePods' ? options.deleteOnly : undefined);
    cluster = step.kind === 'DeletePods' ? cluster : tick(cluster);
  }
  throw new Error(`no Done after 400 steps; last: ${JSON.stringify(steps.at(-1))}`);
}

/**
 * A world where zk-0 crashes once the former leader zk-2 is out of the voters (of five), while zk-2 is still running
 * or once it is not, and recovers a minute later.
 */
function followerCrashWhileLeaderOut(when: { formerLeaderRunning: boolean }): RollOptions['world'] {
  let crashedAt: Date | undefined;
  return (cluster) => {
    if (crashedAt === undefined && cluster.voters.length === 4 && (cluster.slots[2]?.stage === 'up') === when.formerLeaderRunning) {
      crashedAt = cluster.now;
      return crash(cluster, 0);
    }
    const longEnough = crashedAt !== undefined && cluster.now.getTime() - crashedAt.getTime() >= 60_000;
    return longEnough && cluster.slots[0]?.stage === 'crashed' ? recover(cluster, 0) : cluster;
  };
}

function expectLeaderAwareRoll(roll: Roll, start: SimulatedCluster, maxUnavailable: number): void {
  const names = start.slots.map((slot) => `zk-${slot.ordinal}`);
  const oldLeaderPod = `zk-${(start.leader ?? 0) - 1}`;
  expect(roll.cluster.deletions.map((deletion) => deletion.pod).sort()).toEqual(names);
  expect(roll.cluster.deletions.at(-1)).toMatchObject({ pod: oldLeaderPod, leader: true });
  expect(roll.cluster.deletions.filter((deletion) => deletion.leader)).toHaveLength(1);
  expect(roll.cluster.elections).toBe(1);
  expect(roll.mostDown).toBeLessThanOrEqual(maxUnavailable);
  const followerOrdinals = roll.cluster.deletions.slice(0, -1).map((deletion) => Number(deletion.pod.slice('zk-'.length)));
  expect(followerOrdinals).toEqual([...followerOrdinals].sort((a, b) => b - a));
  expect(roll.cluster.slots.every((slot) => slot.stage === 'up')).toBe(true);
}

describe('a template change rolls every pod once, followers by descending ordinal, the leader last', () => {
  it.each([
    [3, 0],
    [3, 1],
    [3, 2],
    [5, 0],
    [5, 2],
    [5, 4],
  ])('%i members with the leader at ordinal %i', (members, leaderOrdinal) => {
    const start = withUpdateRevision(newCluster({ members, leaderOrdinal }), 'zk-new');
    const roll = rollToDone(start);
    expectLeaderAwareRoll(roll, start, 1);
    expect(roll.cluster.slots.map((slot) => slot.pod?.revision)).toEqual(Array(members).fill('zk-new'));
    expect(roll.steps.filter((step) => step.kind === 'Blocked')).toEqual([]);
  });
});

describe('the restart trigger alone restarts every pod, the leader last', () => {
  it.each([
    [3, 1],
    [5, 3],
  ])('%i members with the leader at ordinal %i', (members, leaderOrdinal) => {
    const start = newCluster({ members, leaderOrdinal, spec: { restartTrigger: '2026-01-01T01:00:00Z' } });
    const roll = rollToDone(start);
    expect(roll.steps[0]).toMatchObject({ kind: 'RecordRestartRequest', trigger: '2026-01-01T01:00:00Z' });
    expectLeaderAwareRoll(roll, start, 1);
    expect(roll.cluster.slots.map((slot) => slot.pod?.revision)).toEqual(Array(members).fill('zk-old'));
  });

  it('restarts each pod once when the request lands mid-second and pods are stamped in whole seconds', () => {
    const start = tick(newCluster({ members: 3, leaderOrdinal: 2, spec: { restartTrigger: 'mid-second' } }), 0.75);
    const roll = rollToDone(start);
    expect(roll.steps[0]).toEqual({ kind: 'RecordRestartRequest', trigger: 'mid-second', at: new Date(start.now.getTime() + 250) });
    expectLeaderAwareRoll(roll, start, 1);
  });

  it('does not restart again once the trigger is answered, and restarts all again for a new trigger', () => {
    const first = rollToDone(newCluster({ members: 3, leaderOrdinal: 0, spec: { restartTrigger: 'a' } }));
    expect(planRollingStep(observe(tick(first.cluster, 60))).step).toEqual({ kind: 'Done' });
    const again = rollToDone(withSpec(tick(first.cluster, 60), { restartTrigger: 'b' }));
    expect(again.cluster.deletions).toHaveLength(6);
    expect(again.cluster.slots.map((slot) => slot.stage)).toEqual(['up', 'up', 'up']);
  });
});

describe('maxUnavailable 2 on 5 members', () => {
  it('restarts followers two at a time and the leader alone, never more than two down', () => {
    const start = withUpdateRevision(newCluster({ members: 5, leaderOrdinal: 1, spec: { maxUnavailable: 2 } }), 'zk-new');
    const roll = rollToDone(start);
    expectLeaderAwareRoll(roll, start, 2);
    const batches = roll.steps.flatMap((step) => (step.kind === 'DeletePods' ? [step.pods.map((pod) => pod.name)] : []));
    expect(batches).toEqual([['zk-4', 'zk-3'], ['zk-2', 'zk-0'], ['zk-1']]);
  });

  it('resumes safely when the controller died after deleting the first pod of a batch', () => {
    const start = withUpdateRevision(newCluster({ members: 5, leaderOrdinal: 4, spec: { maxUnavailable: 2 } }), 'zk-new');
    const roll = rollToDone(start, { deleteOnly: 1 });
    expectLeaderAwareRoll(roll, start, 2);
  });

  it('never takes more than the quorum allows, whatever maxUnavailable says', () => {
    const start = withUpdateRevision(newCluster({ members: 5, leaderOrdinal: 0, spec: { maxUnavailable: 4 } }), 'zk-new');
    const roll = rollToDone(start);
    expectLeaderAwareRoll(roll, start, 2);
  });
});

describe('a member down mid-roll', () => {
  /** zk-0 crashes right after the first follower is back; it recovers `downFor` seconds later. */
  function crashAfterFirstRestart(downFor: number): RollOptions['world'] {
    let crashedAt: Date | undefined;
    return (cluster) => {
      if (crashedAt === undefined && cluster.deletions.length === 1 && cluster.slots.every((slot) => slot.stage === 'up')) {
        crashedAt = cluster.now;
        return crash(cluster, 0);
      }
      if (crashedAt !== undefined && cluster.slots[0]?.stage === 'crashed' && cluster.now.getTime() - crashedAt.getTime() >= downFor * 1000) {
        return recover(cluster, 0);
      }
      return cluster;
    };
  }

  it('waits with the reason while it is down, then finishes the roll', () => {
    const start = withUpdateRevision(newCluster({ members: 3, leaderOrdinal: 2 }), 'zk-new');
    const roll = rollToDone(start, { world: crashAfterFirstRestart(60) });
    expect(roll.steps).toContainEqual(expect.objectContaining({ kind: 'Wait', reason: 'PodNotReady', message: 'pod zk-0 is not ready (1 container restarts)' }));
    expect(roll.steps.filter((step) => step.kind === 'Blocked')).toEqual([]);
    expectLeaderAwareRoll(roll, start, 1);
  });

  it('reports Blocked after the step timeout and continues when the member is back', () => {
    const start = withUpdateRevision(newCluster({ members: 3, leaderOrdinal: 2, spec: { stepTimeoutSeconds: 30 } }), 'zk-new');
    const roll = rollToDone(start, { world: crashAfterFirstRestart(120) });
    const blocked = roll.steps.find((step) => step.kind === 'Blocked');
    expect(blocked).toMatchObject({ reason: 'PodNotReady', message: expect.stringContaining('longer than the step timeout of 30s') });
    expectLeaderAwareRoll(roll, start, 1);
  });
});

describe('paused', () => {
  it('finishes the pod in progress, then starts no other until unpaused', () => {
    const start = withUpdateRevision(newCluster({ members: 5, leaderOrdinal: 0 }), 'zk-new');
    let cluster = applyStep(start, planRollingStep(observe(start)).step);
    cluster = withSpec(cluster, { paused: true });
    const seen: string[] = [];
    for (let round = 0; round < 10; round += 1) {
      const { step } = planRollingStep(observe(cluster));
      seen.push(step.kind);
      expect(step.kind).not.toBe('DeletePods');
      cluster = tick(applyStep(cluster, step));
    }
    expect(seen.slice(0, 4)).toEqual(['Wait', 'Wait', 'Wait', 'Wait']);
    expect(seen.slice(-3)).toEqual(['Paused', 'Paused', 'Paused']);
    expect(planRollingStep(observe(cluster)).step).toEqual({ kind: 'Paused', pending: ['zk-0', 'zk-1', 'zk-2', 'zk-3'] });
    const roll = rollToDone(withSpec(cluster, { paused: false }));
    expectLeaderAwareRoll(roll, start, 1);
  });
});

describe('a leader lost mid-roll', () => {
  it('asks ZooKeeper again before each step: the elected, already restarted leader is not restarted, each pod still once', () => {
    const start = withUpdateRevision(newCluster({ members: 5, leaderOrdinal: 2 }), 'zk-new');
    let crashed = false;
    const roll = rollToDone(start, {
      world: (cluster) => {
        if (!crashed && cluster.deletions.length === 1 && cluster.slots.every((slot) => slot.stage === 'up')) {
          crashed = true;
          return crash(cluster, 2);
        }
        return cluster.slots[2]?.stage === 'crashed' ? recover(cluster, 2) : cluster;
      },
    });
    expect(roll.cluster.deletions.map((deletion) => deletion.pod)).toEqual(['zk-4', 'zk-3', 'zk-2', 'zk-1', 'zk-0']);
    expect(roll.cluster.deletions.filter((deletion) => deletion.leader)).toEqual([]);
    expect(roll.cluster.leader).toBe(5);
    expect(roll.cluster.elections).toBe(1);
  });
});

describe('a leader handed over by reconfig instead of an election', () => {
  function expectHandoverRoll(roll: Roll, start: SimulatedCluster): void {
    const oldLeaderPod = `zk-${(start.leader ?? 0) - 1}`;
    const kinds = roll.steps.map((step) => step.kind);
    expect(roll.cluster.deletions.map((deletion) => deletion.pod).sort()).toEqual(start.slots.map((slot) => `zk-${slot.ordinal}`));
    expect(roll.cluster.deletions.at(-1)).toMatchObject({ pod: oldLeaderPod });
    expect(roll.cluster.elections).toBe(0);
    expect(roll.cluster.handovers).toBe(1);
    expect(kinds.indexOf('HandOverLeadership')).toBeLessThan(kinds.lastIndexOf('DeletePods'));
    expect(kinds.lastIndexOf('DeletePods')).toBeLessThan(kinds.indexOf('RestoreVoter'));
    expect(roll.cluster.voters).toEqual(start.voters);
    expect(roll.cluster.status.handover).toBeUndefined();
    expect(roll.cluster.slots.every((slot) => slot.stage === 'up')).toBe(true);
  }

  it.each([
    [5, 2],
    [5, 0],
    [3, 1],
  ] as const)('%i members, leader at ordinal %i: one handover, no election, every voter back', (members, leaderOrdinal) => {
    const start = withUpdateRevision(newCluster({ members, leaderOrdinal, spec: { leaderHandover: 'Reconfigure' } }), 'zk-new');
    const roll = rollToDone(start);
    expectHandoverRoll(roll, start);
    expect(roll.steps.find((step) => step.kind === 'HandOverLeadership')).toMatchObject({ pod: { name: `zk-${leaderOrdinal}`, leader: true }, server: { id: leaderOrdinal + 1 } });
  });

  it('is not done with leaderHandover Election: 5 members restart the leader in place, one election', () => {
    const start = withUpdateRevision(newCluster({ members: 5, leaderOrdinal: 2, spec: { leaderHandover: 'Election' } }), 'zk-new');
    const roll = rollToDone(start);
    expectLeaderAwareRoll(roll, start, 1);
    expect(roll.steps.map((step) => step.kind)).not.toContain('HandOverLeadership');
  });

  it('reconfigures the former leader back in only once it runs at the target and synced', () => {
    const start = withUpdateRevision(newCluster({ members: 5, leaderOrdinal: 3, spec: { leaderHandover: 'Reconfigure' } }), 'zk-new');
    let restoredWhile: string | undefined;
    rollToDone(start, {
      world: (cluster) => {
        const { step } = planRollingStep(observe(cluster));
        if (step.kind === 'RestoreVoter') {
          const slot = cluster.slots[3];
          restoredWhile = `${slot?.stage ?? '-'} ${slot?.pod?.revision ?? '-'}`;
        }
        return cluster;
      },
    });
    expect(restoredWhile).toBe('up zk-new');
  });

  it.each(['HandOverLeadership', 'DeletePods', 'RestoreVoter'] as const)(
    'finishes with every voter back when the controller died right before carrying out %s',
    (dieBefore) => {
      const start = withUpdateRevision(newCluster({ members: 5, leaderOrdinal: 1, spec: { leaderHandover: 'Reconfigure' } }), 'zk-new');
      const roll = rollToDone(start, { dieBefore });
      expectHandoverRoll(roll, start);
    },
  );

  it('a follower failing while the former leader restarts: Blocked at once with the reason, the former leader back in, then done', () => {
    const start = withUpdateRevision(newCluster({ members: 5, leaderOrdinal: 2, spec: { leaderHandover: 'Reconfigure' } }), 'zk-new');
    const roll = rollToDone(start, { world: followerCrashWhileLeaderOut({ formerLeaderRunning: false }) });
    const blocked = roll.steps.find((step) => step.kind === 'Blocked');
    expect(blocked).toMatchObject({ reason: 'HandoverInterrupted', message: expect.stringContaining('the leader handover of zk-2 is interrupted: zk-0 down') });
    const kinds = roll.steps.map((step) => step.kind);
    expect(kinds.indexOf('RestoreVoter')).toBeGreaterThan(kinds.indexOf('Blocked'));
    expectHandoverRoll(roll, start);
  });

  it('a follower failing right after the leader left: the former leader, still running synced, goes back in at once and restarts later as a follower', () => {
    const start = withUpdateRevision(newCluster({ members: 5, leaderOrdinal: 2, spec: { leaderHandover: 'Reconfigure' } }), 'zk-new');
    const roll = rollToDone(start, { world: followerCrashWhileLeaderOut({ formerLeaderRunning: true }) });
    const kinds = roll.steps.map((step) => step.kind);
    expect(kinds.indexOf('RestoreVoter')).toBeLessThan(kinds.lastIndexOf('DeletePods'));
    expect(roll.cluster.deletions.at(-1)).toMatchObject({ pod: 'zk-2', leader: false });
    expect(roll.cluster.deletions.map((deletion) => deletion.pod).sort()).toEqual(['zk-0', 'zk-1', 'zk-2', 'zk-3', 'zk-4']);
    expect(roll.cluster.elections).toBe(0);
    expect(roll.cluster.handovers).toBe(1);
    expect(roll.cluster.voters).toEqual([1, 2, 3, 4, 5]);
    expect(roll.cluster.status.handover).toBeUndefined();
  });

  it('on 3 members, a failure while the leader is out leaves no quorum: Blocked, and the former leader goes back in once the member returns', () => {
    let cluster = withUpdateRevision(newCluster({ members: 3, leaderOrdinal: 0, spec: { leaderHandover: 'Reconfigure' } }), 'zk-new');
    const kinds: string[] = [];
    for (let round = 0; round < 200 && cluster.voters.length === 3; round += 1) {
      const plan = planRollingStep(observe(cluster));
      cluster = tick(applyStep(recordHandover(cluster, plan.handover), plan.step));
    }
    expect(cluster.voters).toEqual([2, 3]);
    cluster = crash(cluster, 1);
    for (let round = 0; round < 20; round += 1) {
      const plan = planRollingStep(observe(cluster));
      kinds.push(plan.step.kind === 'Blocked' ? `Blocked ${plan.step.reason}` : plan.step.kind);
      cluster = tick(applyStep(recordHandover(cluster, plan.handover), plan.step));
    }
    expect(observe(cluster).ensemble.hasQuorum).toBe(false);
    expect(kinds).not.toContain('RestoreVoter');
    expect(kinds.at(-1)).toBe('Blocked HandoverInterrupted');
    const roll = rollToDone(recover(cluster, 1));
    expect(roll.cluster.voters).toEqual([1, 2, 3]);
    expect(roll.cluster.elections).toBe(0);
    expect(roll.cluster.status.handover).toBeUndefined();
  });

  /** Plans every state, as the world hook does, and keeps where the former leader stood at each RestoreVoter. */
  function restoredOn(ordinal: number): { world: RollOptions['world']; seen: string[] } {
    const seen: string[] = [];
    const world = (cluster: SimulatedCluster): SimulatedCluster => {
      if (planRollingStep(observe(cluster)).step.kind === 'RestoreVoter') {
        const pod = cluster.slots[ordinal]?.pod;
        seen.push(`${pod?.uid ?? '-'} ${pod?.revision ?? '-'}`);
      }
      return cluster;
    };
    return { world, seen };
  }

  it.each([
    [5, 2],
    [5, 0],
    [7, 3],
  ] as const)(
    '%i members, leader at ordinal %i: followers syncing again with the successor are waited for; the former leader restarts once and goes back in only then',
    (members, leaderOrdinal) => {
      const start = withUpdateRevision(newCluster({ members, leaderOrdinal, spec: { leaderHandover: 'Reconfigure' } }), 'zk-new');
      const restored = restoredOn(leaderOrdinal);
      const roll = rollToDone(start, { world: restored.world });
      const leaderPod = `zk-${leaderOrdinal}`;
      expect(roll.steps).toContainEqual(expect.objectContaining({ kind: 'Wait', reason: 'LeadershipMoving', message: expect.stringContaining('to sync with the successor') }));
      expect(roll.cluster.deletions.filter((deletion) => deletion.pod === leaderPod)).toHaveLength(1);
      expect(restored.seen.every((where) => where.endsWith(' zk-new') && !where.startsWith(`uid-${leaderOrdinal} `))).toBe(true);
      expect(roll.steps.filter((step) => step.kind === 'RestoreVoter')).toHaveLength(1);
      expect(roll.steps.filter((step) => step.kind === 'Blocked')).toEqual([]);
      expectHandoverRoll(roll, start);
    },
  );

  it('a trait deleted mid-handover (planned paused until the record goes): the former leader is restarted once, then a voter again', () => {
    let cluster = withUpdateRevision(newCluster({ members: 5, leaderOrdinal: 2, spec: { leaderHandover: 'Reconfigure' } }), 'zk-new');
    for (let round = 0; round < 200 && cluster.status.handover === undefined; round += 1) {
      const plan = planRollingStep(observe(cluster));
      cluster = recordHandover(cluster, plan.handover);
      cluster = plan.step.kind === 'DeletePods' ? applyStep(cluster, plan.step) : tick(applyStep(cluster, plan.step));
    }
    expect(cluster.voters).toEqual([1, 2, 4, 5]);
    cluster = withSpec(cluster, { paused: true });
    for (let round = 0; round < 200 && cluster.status.handover !== undefined; round += 1) {
      const plan = planRollingStep(observe(cluster));
      expect(plan.step.kind).not.toBe('Blocked');
      cluster = recordHandover(cluster, plan.handover);
      cluster = plan.step.kind === 'DeletePods' ? applyStep(cluster, plan.step) : tick(applyStep(cluster, plan.step));
    }
    expect(cluster.status.handover).toBeUndefined();
    expect(cluster.voters).toEqual([1, 2, 3, 4, 5]);
    expect(cluster.deletions.filter((deletion) => deletion.pod === 'zk-2')).toHaveLength(1);
    expect(cluster.slots[2]?.pod?.revision).toBe('zk-new');
  });

  it('a follower failing while the others sync again and the former leader restarts: Blocked at once naming it, the former leader back in on its new pod', () => {
    const start = withUpdateRevision(newCluster({ members: 5, leaderOrdinal: 2, spec: { leaderHandover: 'Reconfigure' } }), 'zk-new');
    const restored = restoredOn(2);
    let crashedAt: Date | undefined;
    const roll = rollToDone(start, {
      world: (cluster, steps) => {
        const next = restored.world?.(cluster, steps) ?? cluster;
        if (crashedAt === undefined && next.voters.length === 4 && next.slots[2]?.stage !== 'up') {
          crashedAt = next.now;
          return crash(next, 0);
        }
        const longEnough = crashedAt !== undefined && next.now.getTime() - crashedAt.getTime() >= 60_000;
        return longEnough && next.slots[0]?.stage === 'crashed' ? recover(next, 0) : next;
      },
    });
    const kinds = roll.steps.map((step) => step.kind);
    expect(roll.steps.slice(0, kinds.lastIndexOf('DeletePods'))).toContainEqual(
      expect.objectContaining({ kind: 'Wait', message: expect.stringContaining('to sync with the successor') }),
    );
    expect(roll.steps.find((step) => step.kind === 'Blocked')).toMatchObject({
      reason: 'HandoverInterrupted',
      message: expect.stringContaining('the leader handover of zk-2 is interrupted: zk-0 down: pod zk-0 is not ready'),
    });
    expect(kinds.indexOf('Blocked')).toBe(kinds.lastIndexOf('DeletePods') + 1);
    expect(roll.cluster.deletions.filter((deletion) => deletion.pod === 'zk-2')).toHaveLength(1);
    expect(restored.seen.every((where) => where.endsWith(' zk-new'))).toBe(true);
    expectHandoverRoll(roll, start);
  });

  it('goes on with a handover under way when paused, and rests once the former leader is back', () => {
    const start = withUpdateRevision(newCluster({ members: 5, leaderOrdinal: 4, spec: { leaderHandover: 'Reconfigure' } }), 'zk-new');
    let cluster = start;
    for (let round = 0; round < 200 && cluster.voters.length === 5; round += 1) {
      const plan = planRollingStep(observe(cluster));
      cluster = tick(applyStep(recordHandover(cluster, plan.handover), plan.step));
    }
    cluster = withSpec(cluster, { paused: true });
    const roll = rollToDone(cluster);
    expect(roll.steps.map((step) => step.kind)).toContain('RestoreVoter');
    expect(roll.cluster.voters).toEqual([1, 2, 3, 4, 5]);
  });
});
