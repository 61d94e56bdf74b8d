// Drives a test World with the planner until Done, checking at every state what must hold whatever happened before.
import { ordinalOfMyid, type ScaleStep } from '@zk-oam/apis';
import { quorumSize } from '@zk-oam/zookeeper';
import { expect } from 'vitest';
import { changesWorld, type ScaleAction, type ScaleActionKind, type ScalePlan } from './action.js';
import { planScale } from './plan.js';
import type { World } from './test-world.js';

/** Which status writes survive: all, none, or all but the one after an action of the given kind (the controller died). */
export type StatusWrites = 'always' | 'never' | { lostAfter: ScaleActionKind };

export interface Run {
  /** The world-changing actions, in order. */
  actions: ScaleAction[];
  /** Every plan, including waits. */
  plans: ScalePlan[];
}

/** A record of a change the world is not in: planning must not follow it. */
const STALE_STEP: ScaleStep = {
  action: 'Remove',
  pod: 'zk-30',
  myid: 31,
  stage: 'StoppingMember',
  startedAt: '2025-12-31T23:59:00Z',
};

export function runToDone(world: World, statusWrites: StatusWrites = 'always', maxPlans = 400): Run {
  const run: Run = { actions: [], plans: [] };
  for (let planned = 0; planned < maxPlans; planned += 1) {
    const plan = planAndCheck(world);
    run.plans.push(plan);
    if (statusSurvives(statusWrites, plan.action)) {
      world.recordedStep = plan.step;
    }
    if (changesWorld(plan.action)) {
      world.apply(plan.action);
      run.actions.push(plan.action);
      continue;
    }
    const progressed = world.advance();
    if (plan.action.kind === 'Done' && !progressed) {
      return run;
    }
    if (!progressed) {
      throw new Error(`stuck: nothing left to happen, yet the plan says ${JSON.stringify(plan.action)}`);
    }
  }
  throw new Error(`no Done after ${maxPlans} plans; last: ${JSON.stringify(run.plans.at(-1)?.action)}`);
}

/** Plans the current state and checks: same state same plan, the status record never changes the action, quorum kept. */
export function planAndCheck(world: World): ScalePlan {
  const input = world.input();
  const plan = planScale(input);
  expect(planScale(world.input()), 'planning the same state again gives the same plan').toEqual(plan);
  for (const recordedStep of [undefined, STALE_STEP]) {
    const resumed = planScale({ ...input, recordedStep });
    if (changesWorld(plan.action) || changesWorld(resumed.action)) {
      expect(resumed.action, `with status.step ${JSON.stringify(recordedStep)} the next action is the same`).toEqual(plan.action);
    }
  }
  expect(world.servingVoters().length, `invariant 1: voters up in ${JSON.stringify(world.voters)}`).toBeGreaterThanOrEqual(
    quorumSize(world.voters.length),
  );
  return plan;
}

function statusSurvives(writes: StatusWrites, action: ScaleAction): boolean {
  if (writes === 'always' || writes === 'never') {
    return writes === 'always';
  }
  return action.kind !== writes.lostAfter;
}

/** "raise 4", "add 4", "lower 4", "remove 5", "delete data-zk-4": a run's actions, readable in an assertion. */
export function describeActions(actions: readonly ScaleAction[]): string[] {
  return actions.map((action) => {
    switch (action.kind) {
      case 'RaiseReplicas':
        return `raise to ${action.to}`;
      case 'ReconfigAdd':
        return `add ${action.member}`;
      case 'ReconfigRemove':
        return `remove ${action.member}`;
      case 'LowerReplicas':
        return `lower to ${action.to}`;
      case 'DeleteVolume':
        return `delete ${action.pvc}`;
      case 'Done':
      case 'Wait':
      case 'Blocked':
        return action.kind;
    }
  });
}

/** The end state every operation must reach: voters 1..size on pods 0..size-1, all synced participants, one leader. */
export function expectSettled(world: World, size: number): void {
  const ids = Array.from({ length: size }, (_, index) => index + 1);
  expect(world.voters).toEqual(ids);
  expect(world.workloadReplicas).toBe(size);
  expect(world.pods.map((pod) => [pod.ordinal, pod.server, pod.runsAs, pod.deleting])).toEqual(
    ids.map((id) => [ordinalOfMyid(id), 'synced', 'participant', false]),
  );
  expect(world.leader).toBeDefined();
}
