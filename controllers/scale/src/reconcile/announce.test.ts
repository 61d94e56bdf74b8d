// What a status change announces: steps started and completed (numbered within the operation), new blocks, and a Ready
// condition newly saying what a person must hear of.
import { podOfMember, type ZookeeperScaleStatus } from '@zk-oam/apis';
import { describe, expect, it } from 'vitest';
import { factsOf, stepData } from './announce.js';

const startedAt = '2026-01-01T00:00:00Z';
const operation = { from: 3, startedAt };

function adding(myid: number, stage = 'StartingMember'): ZookeeperScaleStatus['step'] {
  return { action: 'Add', pod: podOfMember('zk', myid), myid, stage, startedAt };
}

function removing(myid: number): ZookeeperScaleStatus['step'] {
  return { action: 'Remove', pod: podOfMember('zk', myid), myid, stage: 'LeavingConfiguration', startedAt };
}

function blockedBy(reason: string): ZookeeperScaleStatus['conditions'] {
  return [{ type: 'Blocked', status: 'True', reason, message: `blocked: ${reason}`, lastTransitionTime: startedAt }];
}

describe('factsOf', () => {
  it('announces the first step of an operation as started', () => {
    const made = factsOf({ phase: 'Idle' }, { phase: 'ScalingUp', operation, step: adding(4) });
    expect(made.map((made) => [made.nats?.type, made.nats?.data])).toEqual([['ScaleStepStarted', { step: 1, from: 3, to: 4, member: 'zk-3' }]]);
    expect(made[0]?.kubernetes.note).toBe('step 1 started: adding zk-3 (myid 4), 3 -> 4 members');
  });

  it('announces nothing while the same step moves through its stages', () => {
    expect(factsOf({ operation, step: adding(4) }, { operation, step: adding(4, 'WaitingForSync') })).toEqual([]);
  });

  it('announces the previous step completed and the next one started', () => {
    const made = factsOf({ operation, step: adding(4) }, { operation, step: adding(5) });
    expect(made.map((made) => `${made.nats?.type} ${JSON.stringify(made.nats?.data)}`)).toEqual([
      'ScaleStepCompleted {"step":1,"from":3,"to":4,"member":"zk-3"}',
      'ScaleStepStarted {"step":2,"from":4,"to":5,"member":"zk-4"}',
    ]);
  });

  it('announces the last step completed when the operation ends', () => {
    const made = factsOf({ operation: { from: 5, startedAt }, step: removing(4) }, { phase: 'Idle' });
    expect(made.map((made) => [made.nats?.type, made.nats?.data])).toEqual([['ScaleStepCompleted', { step: 2, from: 4, to: 3, member: 'zk-3' }]]);
  });

  it('announces a block once per reason, as a Warning', () => {
    const made = factsOf({ phase: 'ScalingDown' }, { phase: 'Blocked', conditions: blockedBy('MemberUnhealthy') });
    expect(made.map((made) => [made.nats?.type, made.kubernetes.type, made.kubernetes.reason])).toEqual([['ScaleBlocked', 'Warning', 'MemberUnhealthy']]);
    expect(factsOf({ conditions: blockedBy('MemberUnhealthy') }, { conditions: blockedBy('MemberUnhealthy') })).toEqual([]);
    expect(factsOf({ conditions: blockedBy('MemberUnhealthy') }, { conditions: blockedBy('QuorumAtRisk') })).toHaveLength(1);
  });

  it('warns once, without a NATS event, when Ready newly says the spec does not validate or the lock was lost', () => {
    const ready = (reason: string): ZookeeperScaleStatus['conditions'] => [{ type: 'Ready', status: 'False', reason, message: `not ready: ${reason}`, lastTransitionTime: startedAt }];
    const made = factsOf({ phase: 'ScalingUp', conditions: ready('ScalingUp') }, { phase: 'ScalingUp', conditions: ready('InvalidSpec') });
    expect(made).toEqual([{ kubernetes: { type: 'Warning', reason: 'InvalidSpec', action: 'Validate', note: 'not ready: InvalidSpec' }, nats: undefined }]);
    expect(factsOf({ conditions: ready('InvalidSpec') }, { conditions: ready('DisruptionLockLost') }).map((fact) => [fact.kubernetes.reason, fact.kubernetes.action])).toEqual([['DisruptionLockLost', 'Lock']]);
    expect(factsOf({ conditions: ready('DisruptionLockLost') }, { conditions: ready('DisruptionLockLost') })).toEqual([]);
    expect(factsOf(undefined, { conditions: ready('WaitingForDisruptionLock') })).toEqual([]);
  });

  it('numbers steps from the operation\'s starting size, in both directions', () => {
    expect(stepData({ action: 'Add', pod: 'zk-4', myid: 5, startedAt }, 3).step).toBe(2);
    expect(stepData({ action: 'Remove', pod: 'zk-4', myid: 5, startedAt }, 5).step).toBe(1);
    expect(stepData({ action: 'Remove', pod: 'zk-1', myid: 2, startedAt }, 3).step).toBe(2);
  });
});
