// Whole scale operations played against the world model: every step, every intermediate state, every status loss.
import { describe, expect, it } from 'vitest';
import { planScale } from './plan.js';
import { describeActions, expectSettled, planAndCheck, runToDone, type StatusWrites } from './test-simulation.js';
import { World } from './test-world.js';

const STATUS_WRITES: [string, StatusWrites][] = [
  ['every status write lands', 'always'],
  ['no status write ever lands', 'never'],
  ['the status write after raising replicas is lost', { lostAfter: 'RaiseReplicas' }],
  ['the status write after a reconfig add is lost', { lostAfter: 'ReconfigAdd' }],
  ['the status write after a reconfig remove is lost', { lostAfter: 'ReconfigRemove' }],
  ['the status write after lowering replicas is lost', { lostAfter: 'LowerReplicas' }],
];

describe.each(STATUS_WRITES)('when %s', (_, statusWrites) => {
  it.each([
    [3, 5, ['raise to 4', 'add 4', 'raise to 5', 'add 5']],
    [1, 3, ['raise to 2', 'add 2', 'raise to 3', 'add 3']],
    [5, 3, ['remove 5', 'lower to 4', 'remove 4', 'lower to 3']],
    [3, 1, ['remove 3', 'lower to 2', 'remove 2', 'lower to 1']],
  ])('scales %i -> %i one member at a time', (from, to, expected) => {
    const world = new World({ members: from, target: to });
    const run = runToDone(world, statusWrites);
    expect(describeActions(run.actions)).toEqual(expected);
    expectSettled(world, to);
    expect(world.volumes.map((volume) => volume.ordinal)).toEqual([0, 1, 2, 3, 4].slice(0, Math.max(from, to)));
  });

  it('scales 3 -> 5 -> 3 -> 5 reusing the retained volumes, each reconfig exactly once per change', () => {
    const world = new World({ members: 3, target: 5 });
    const actions = [5, 3, 5].flatMap((target) => {
      world.target = target;
      return describeActions(runToDone(world, statusWrites).actions);
    });
    expect(actions).toEqual([
      ...['raise to 4', 'add 4', 'raise to 5', 'add 5'],
      ...['remove 5', 'lower to 4', 'remove 4', 'lower to 3'],
      ...['raise to 4', 'add 4', 'raise to 5', 'add 5'],
    ]);
    expect(world.reconfigs).toEqual(['add 4', 'add 5', 'remove 5', 'remove 4', 'add 4', 'add 5']);
    expectSettled(world, 5);
  });

  it('scales 5 -> 3 -> 5 with policy Delete: each removed member volume goes once its pod is gone, and comes back fresh', () => {
    const world = new World({ members: 5, target: 3, policy: 'Delete' });
    const down = describeActions(runToDone(world, statusWrites).actions);
    expect(down).toEqual(['remove 5', 'lower to 4', 'delete data-zk-4', 'remove 4', 'lower to 3', 'delete data-zk-3']);
    expect(world.volumes.map((volume) => volume.ordinal)).toEqual([0, 1, 2]);
    world.target = 5;
    expect(describeActions(runToDone(world, statusWrites).actions)).toEqual(['raise to 4', 'add 4', 'raise to 5', 'add 5']);
    expectSettled(world, 5);
  });

  it('removes the leader first when it is the highest ordinal, costing exactly one leader election', () => {
    const world = new World({ members: 5, target: 3, leader: 5 });
    const run = runToDone(world, statusWrites);
    expect(describeActions(run.actions).slice(0, 1)).toEqual(['remove 5']);
    expect(world.leaderElections).toBe(1);
    expect(world.leader).toBe(1);
    expectSettled(world, 3);
  });
});

describe('a target changed in the middle of a change', () => {
  it('stops a joiner that is no longer needed without ever reconfiguring it in', () => {
    const world = new World({ members: 3, target: 5 });
    world.apply(planAndCheck(world).action);
    world.advance();
    world.advance();
    world.target = 3;
    const run = runToDone(world);
    expect(describeActions(run.actions)).toEqual(['lower to 3']);
    expect(world.reconfigs).toEqual([]);
    expectSettled(world, 3);
  });

  it('takes a member just reconfigured out back in when the target grows again', () => {
    const world = new World({ members: 5, target: 3 });
    world.apply(planAndCheck(world).action);
    world.target = 5;
    const run = runToDone(world);
    expect(describeActions(run.actions)).toEqual(['add 5']);
    expect(world.reconfigs).toEqual(['remove 5', 'add 5']);
    expectSettled(world, 5);
  });
});

describe('a member down', () => {
  it('blocks a scale-down naming the member, then proceeds once it is back', () => {
    const world = new World({ members: 5, target: 3 });
    world.setDown(2, true);
    const blocked = planAndCheck(world);
    expect(blocked).toMatchObject({ phase: 'Blocked', action: { kind: 'Blocked', reason: 'MemberUnhealthy' } });
    expect(blocked.action.kind === 'Blocked' && blocked.action.message).toBe(
      'not removing zk-4 (myid 5) while the ensemble is unhealthy: member 2 (127.0.10.2) is not serving requests (pod zk-1)',
    );
    expect(blocked.step).toBeUndefined();
    world.setDown(2, false);
    expect(describeActions(runToDone(world).actions)).toEqual(['remove 5', 'lower to 4', 'remove 4', 'lower to 3']);
    expectSettled(world, 3);
  });

  it('holds a scale-up before the reconfig while a voter is down, then finishes it once the voter is back', () => {
    const world = new World({ members: 3, target: 5 });
    world.apply(planAndCheck(world).action);
    while (planAndCheck(world).action.kind !== 'ReconfigAdd') {
      world.advance();
    }
    world.setDown(1, true);
    expect(planAndCheck(world).action).toMatchObject({ kind: 'Blocked', reason: 'MemberUnhealthy' });
    world.setDown(1, false);
    expect(describeActions(runToDone(world).actions)).toEqual(['add 4', 'raise to 5', 'add 5']);
    expectSettled(world, 5);
  });

  it('never takes the first disruptive step while a member is down, however long it waits', () => {
    const world = new World({ members: 3, target: 1 });
    world.setDown(1, true);
    for (let minute = 0; minute < 30; minute += 1) {
      world.now = new Date(world.now.getTime() + 60_000);
      expect(planScale(world.input()).action).toMatchObject({ kind: 'Blocked', reason: 'MemberUnhealthy' });
    }
    expect(world.reconfigs).toEqual([]);
  });
});
