// The planner's single decisions, state by state: what it refuses, what it waits for, what it does, what it records.
import { formatServerLine, zxidFromValue } from '@zk-oam/zookeeper';
import { describe, expect, it } from 'vitest';
import type { ScaleAction } from './action.js';
import type { ScalePlanInput } from './input.js';
import { planScale } from './plan.js';
import { serverEntry, World } from './test-world.js';

/** 3 voters and member 4 raised: `advances` moves it through pod created, server starting, syncing, synced. */
function joining(advances: number, target = 5): World {
  const world = new World({ members: 3, target });
  world.apply({ kind: 'RaiseReplicas', to: 4, member: 4 });
  for (let step = 0; step < advances; step += 1) {
    world.advance();
  }
  return world;
}

const JOINER_SYNCED = 4;

/** 4 voters and member 4 just reconfigured out, still running as a non-voting follower. */
function justRemoved(options: { leader?: number; target?: number } = {}): World {
  const world = new World({ members: 4, target: options.target ?? 3, ...(options.leader === undefined ? {} : { leader: options.leader }) });
  world.apply({ kind: 'ReconfigRemove', member: 4, fromVersion: zxidFromValue(world.configVersion) });
  return world;
}

function withVoters(world: World, ids: number[], roles: Record<number, 'participant' | 'observer'> = {}): ScalePlanInput {
  const input = world.input();
  return {
    ...input,
    committed: {
      ok: true,
      config: { servers: ids.map((id) => serverEntry(id, roles[id] ?? 'participant')), version: zxidFromValue(world.configVersion) },
    },
  };
}

function tweak(world: World, change: (world: World) => void): World {
  change(world);
  return world;
}

describe('planScale refuses states it does not own', () => {
  it.each<[string, () => ScalePlanInput, Partial<Extract<ScaleAction, { kind: 'Blocked' | 'Wait' }>>]>([
    [
      'an unreadable committed config',
      () => ({ ...new World({ members: 3, target: 5 }).input(), committed: { ok: false, reason: 'no member serves' } }),
      { kind: 'Blocked', reason: 'ConfigUnreadable', message: 'cannot read the committed ZooKeeper config: no member serves' },
    ],
    [
      'a workload without a StatefulSet',
      () => ({ ...new World({ members: 3, target: 5 }).input(), statefulSet: undefined }),
      { kind: 'Wait', reason: 'WaitingForStatefulSet' },
    ],
    [
      'an observer in the committed config',
      () => withVoters(joining(JOINER_SYNCED), [1, 2, 3, 4], { 4: 'observer' }),
      { kind: 'Blocked', reason: 'UnmanagedObserver' },
    ],
    [
      'voters that are not 1..n',
      () => withVoters(new World({ members: 4, target: 3 }), [1, 2, 4]),
      { kind: 'Blocked', reason: 'UnexpectedVoters' },
    ],
    [
      'a voter whose pod is missing',
      () => tweak(new World({ members: 3, target: 5 }), (world) => (world.pods = world.pods.filter((pod) => pod.ordinal !== 1))).input(),
      {
        kind: 'Blocked',
        reason: 'VoterWithoutPod',
        message: 'zk-1 (myid 2) is a voter in the committed config without a running pod; waiting for it to come back',
      },
    ],
    [
      'a voter whose pod is being deleted',
      () => tweak(new World({ members: 3, target: 1 }), (world) => world.pods.forEach((pod) => (pod.deleting = pod.ordinal === 0))).input(),
      { kind: 'Blocked', reason: 'VoterWithoutPod' },
    ],
    [
      'a workload asking for fewer pods than voters',
      () => tweak(new World({ members: 3, target: 1 }), (world) => (world.workloadReplicas = 2)).input(),
      { kind: 'Blocked', reason: 'ReplicasBelowMembership' },
    ],
    [
      'a workload asking for two members more than vote',
      () => tweak(new World({ members: 3, target: 5 }), (world) => (world.workloadReplicas = 5)).input(),
      { kind: 'Blocked', reason: 'ReplicasAboveMembership' },
    ],
  ])('%s', (_, input, expected) => {
    const plan = planScale(input());
    expect(plan.action).toMatchObject(expected);
  });

  it('keeps the recorded step when it cannot tell which change is under way', () => {
    const world = joining(1);
    world.recordedStep = { action: 'Add', pod: 'zk-3', myid: 4, stage: 'StartingMember', startedAt: '2025-12-31T23:58:00Z' };
    const plan = planScale({ ...world.input(), committed: { ok: false, reason: 'connection loss' } });
    expect(plan.step).toEqual(world.recordedStep);
    expect(plan.current).toBeUndefined();
  });
});

describe('planScale adds a member only once it runs and is synced as a non-voting member', () => {
  it.each<[string, () => World, Partial<ScaleAction>]>([
    ['the StatefulSet has not caught up', () => joining(0), { kind: 'Wait', reason: 'WaitingForStatefulSet' }],
    ['the pod does not exist yet', () => joining(1), { kind: 'Wait', reason: 'WaitingForPod', message: 'zk-3 (myid 4) has no running pod with an IP yet' }],
    ['the server is not serving yet', () => joining(2), { kind: 'Wait', reason: 'WaitingForServer', message: 'zk-3 (myid 4) is not serving requests' }],
    [
      'the server serves but is still syncing',
      () => joining(3),
      { kind: 'Wait', reason: 'WaitingForSync', message: 'zk-3 (myid 4) serves as a non-voting observer but has not synced with the leader yet' },
    ],
    ['a voter is down', () => tweak(joining(JOINER_SYNCED), (world) => world.setDown(2, true)), { kind: 'Blocked', reason: 'MemberUnhealthy' }],
    [
      'the joiner leads an ensemble of its own',
      () => tweak(joining(JOINER_SYNCED), (world) => (world.leader = 4)),
      { kind: 'Wait', reason: 'WaitingForLeaderHandover', message: expect.stringContaining('zk-3 (myid 4) leads but is not a voter') },
    ],
  ])('waits while %s', (_, world, expected) => {
    expect(planScale(world().input()).action).toMatchObject(expected);
  });

  it('reconfigs the synced joiner in as a participant, from the config version it read', () => {
    const world = joining(JOINER_SYNCED);
    const plan = planScale(world.input());
    expect(plan.action).toEqual({
      kind: 'ReconfigAdd',
      member: 4,
      server: serverEntry(4, 'participant'),
      fromVersion: zxidFromValue(world.configVersion),
    });
    expect(plan.action.kind === 'ReconfigAdd' && formatServerLine(plan.action.server)).toBe(
      'server.4=zk-3.zk-headless.default.svc.cluster.local:2888:3888:participant;zk-3.zk-headless.default.svc.cluster.local:2181',
    );
    expect(plan).toMatchObject({ phase: 'ScalingUp', current: 3, target: 5, step: { action: 'Add', pod: 'zk-3', myid: 4, stage: 'JoiningConfiguration' } });
  });

  it('does not reconfig in a synced outsider while the StatefulSet is above the workload (its pod may be stopping)', () => {
    const world = tweak(joining(JOINER_SYNCED), (w) => (w.statefulSetReplicas = 5));
    expect(planScale(world.input()).action).toMatchObject({ kind: 'Wait', reason: 'WaitingForStatefulSet' });
  });

  it('stops the joiner instead when the target dropped back to the committed size', () => {
    expect(planScale(joining(JOINER_SYNCED, 3).input()).action).toEqual({ kind: 'LowerReplicas', to: 3, member: 4 });
  });

  it('waits for a deleting volume to go before starting a pod on its ordinal', () => {
    const world = new World({ members: 3, target: 4, policy: 'Delete' });
    world.volumes.push({ ordinal: 3, deleting: true });
    expect(planScale(world.input()).action).toMatchObject({ kind: 'Wait', reason: 'WaitingForVolumeRelease' });
  });
});

describe('planScale removes the highest member first, and stops its pod only once it has left the config', () => {
  it('reconfigs out the last of two members: both stay up while the reconfig commits', () => {
    const world = new World({ members: 2, target: 1 });
    expect(planScale(world.input()).action).toEqual({ kind: 'ReconfigRemove', member: 2, fromVersion: zxidFromValue(world.configVersion) });
  });

  it('reconfigs out the highest member even when it leads', () => {
    expect(planScale(new World({ members: 3, target: 2, leader: 3 }).input()).action).toMatchObject({ kind: 'ReconfigRemove', member: 3 });
  });

  it.each<[string, () => World, Partial<ScaleAction>]>([
    [
      'the removed member still leads',
      () => justRemoved({ leader: 4 }),
      { kind: 'Wait', reason: 'WaitingForLeaderHandover', message: expect.stringContaining('zk-3 (myid 4) leads but is not a voter') },
    ],
    [
      'the remaining voters have no quorum',
      () => tweak(justRemoved(), (world) => [2, 3].forEach((id) => world.setDown(id, true))),
      { kind: 'Wait', reason: 'WaitingForQuorum', message: 'not stopping zk-3 (myid 4) yet: only 1 of the 3 old voters stay up, 2 needed' },
    ],
  ])('does not lower replicas while %s', (_, world, expected) => {
    expect(planScale(world().input()).action).toMatchObject(expected);
  });

  it('lowers replicas once the member is out of the committed config and a voter leads', () => {
    expect(planScale(justRemoved().input()).action).toEqual({ kind: 'LowerReplicas', to: 3, member: 4 });
  });

  it('reconfigs the removed member back in when the target grows again before its pod stopped', () => {
    expect(planScale(justRemoved({ target: 4 }).input()).action).toMatchObject({ kind: 'ReconfigAdd', member: 4 });
  });

  it.each<['Retain' | 'Delete', Partial<ScaleAction>]>([
    ['Delete', { kind: 'Wait', reason: 'WaitingForPodRemoval' }],
    ['Retain', { kind: 'Wait', reason: 'WaitingForPodRemoval' }],
  ])('never deletes the volume of a pod that still exists (policy %s)', (policy, expected) => {
    const world = tweak(new World({ members: 4, target: 3, policy }), (w) => {
      w.voters = [1, 2, 3];
      w.workloadReplicas = 3;
      w.statefulSetReplicas = 3;
      w.pods.forEach((pod) => (pod.deleting = pod.ordinal === 3));
    });
    expect(planScale(world.input()).action).toMatchObject(expected);
  });

  it.each<['Retain' | 'Delete', ScaleAction]>([
    ['Delete', { kind: 'DeleteVolume', pvc: 'data-zk-4', member: 5 }],
    ['Retain', { kind: 'Done' }],
  ])('handles the volumes of removed members per policy %s, highest first', (policy, expected) => {
    const world = new World({ members: 3, target: 3, policy });
    world.volumes.push({ ordinal: 3, deleting: false }, { ordinal: 4, deleting: false });
    expect(planScale(world.input()).action).toEqual(expected);
  });
});

describe('planScale on an ensemble that is not healthy', () => {
  it('blocks a scale-up while a voter is down, naming it', () => {
    const world = tweak(new World({ members: 3, target: 5 }), (w) => w.setDown(3, true));
    expect(planScale(world.input())).toMatchObject({
      phase: 'Blocked',
      action: {
        kind: 'Blocked',
        reason: 'MemberUnhealthy',
        message: 'not adding zk-3 (myid 4) while the ensemble is unhealthy: member 3 (127.0.10.3) is not serving requests (pod zk-2)',
      },
    });
  });

  it('waits, not blocks, while a serving voter is still syncing', () => {
    const world = tweak(new World({ members: 3, target: 1 }), (w) => w.pods.forEach((pod) => (pod.server = pod.ordinal === 1 ? 'syncing' : pod.server)));
    expect(planScale(world.input())).toMatchObject({
      phase: 'ScalingDown',
      action: { kind: 'Wait', reason: 'WaitingForHealthyEnsemble' },
      step: undefined,
    });
  });

  it('confirms a member just added before calling the change done', () => {
    const world = joining(JOINER_SYNCED, 4);
    world.apply(planScale(world.input()).action);
    world.recordedStep = { action: 'Add', pod: 'zk-3', myid: 4, stage: 'JoiningConfiguration', startedAt: world.now.toISOString() };
    expect(planScale(world.input())).toMatchObject({ phase: 'ScalingUp', action: { kind: 'Wait', reason: 'ConfirmingMembership' } });
    world.advance();
    expect(planScale(world.input())).toMatchObject({ phase: 'Idle', action: { kind: 'Done' }, step: undefined });
  });

  it('reports Done at the target whatever the health, leaving health to the workload', () => {
    const world = tweak(new World({ members: 3, target: 3 }), (w) => w.setDown(2, true));
    expect(planScale(world.input())).toMatchObject({ phase: 'Idle', action: { kind: 'Done' }, current: 3, target: 3 });
  });
});

describe('the step record', () => {
  const startedAt = '2026-01-01T00:00:00.000Z';
  const waitingForSync = (): World => joining(3);

  it.each([
    ['keeps the clock of the same change and waits within the timeout', 599, { kind: 'Wait', reason: 'WaitingForSync' }, 'ScalingUp'],
    ['turns a wait longer than the step timeout into Blocked', 601, { kind: 'Blocked', reason: 'StepTimedOut' }, 'Blocked'],
  ])('%s', (_, seconds, expected, phase) => {
    const world = waitingForSync();
    world.recordedStep = { action: 'Add', pod: 'zk-3', myid: 4, stage: 'StartingMember', startedAt };
    const plan = planScale({ ...world.input(), now: new Date(Date.parse(startedAt) + seconds * 1000) });
    expect(plan).toMatchObject({ phase, action: expected, step: { action: 'Add', myid: 4, stage: 'WaitingForSync', startedAt } });
  });

  it('says which step timed out and what it waits for', () => {
    const world = waitingForSync();
    world.recordedStep = { action: 'Add', pod: 'zk-3', myid: 4, stage: 'StartingMember', startedAt };
    const plan = planScale({ ...world.input(), now: new Date(Date.parse(startedAt) + 700_000) });
    expect(plan.action).toMatchObject({
      message:
        'adding zk-3 (myid 4) has taken 700s, longer than the step timeout of 600s: zk-3 (myid 4) serves as a non-voting observer but has not synced with the leader yet',
    });
  });

  it('restarts the clock for a different change', () => {
    const world = waitingForSync();
    world.recordedStep = { action: 'Remove', pod: 'zk-3', myid: 4, stage: 'StoppingMember', startedAt };
    const now = new Date(Date.parse(startedAt) + 3_600_250);
    // In whole seconds, as Kubernetes writes every time of a status.
    expect(planScale({ ...world.input(), now }).step).toMatchObject({ action: 'Add', myid: 4, startedAt: '2026-01-01T01:00:00Z' });
  });

  it('starts a change with a fresh record', () => {
    const world = new World({ members: 3, target: 5 });
    expect(planScale(world.input())).toMatchObject({
      phase: 'ScalingUp',
      action: { kind: 'RaiseReplicas', to: 4, member: 4 },
      step: { action: 'Add', pod: 'zk-3', myid: 4, stage: 'StartingMember', startedAt: '2026-01-01T00:00:00Z' },
    });
  });
});
