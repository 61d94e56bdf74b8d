// The observation request-reply's contract: its subjects stay outside the event stream, and the reply schema refuses
// what a person could misread (a malformed zxid, a negative lag, an unreachable member with a zxid).
import { describe, expect, it } from 'vitest';
import { ALL_OBSERVATIONS_SUBJECT, observationReplySchema, observationSubject } from './observation.js';
import { zkEventStream } from './subject.js';

const reply = {
  workload: { namespace: 'prod', name: 'zk', uid: 'uid-1' },
  observedAt: '2026-11-25T21:00:00.000Z',
  members: [
    { pod: 'zk-0', myid: 1, answered: true, mode: 'leader', zxid: '0x200000009', lag: { kind: 'behind', transactions: 0 } },
    { pod: 'zk-1', myid: 2, answered: true, mode: 'follower', zxid: '0x1000000ff', lag: { kind: 'olderEpoch', epoch: 1, leaderEpoch: 2 } },
    { pod: 'zk-2', myid: 3, answered: false, mode: 'none', problem: 'is not serving requests', lag: { kind: 'unknown', reason: 'the member gave no zxid' } },
  ],
};

describe('observationSubject', () => {
  it('names one token per name, outside the event stream\'s subjects', () => {
    expect(observationSubject('prod', 'zk.main')).toBe('zkoam.v1.observations.prod.zk_main');
    expect(ALL_OBSERVATIONS_SUBJECT).toBe('zkoam.v1.observations.*.*');
    expect(zkEventStream.subjects).toEqual(['zk.>']);
    expect(observationSubject('prod', 'zk').startsWith('zk.')).toBe(false);
  });
});

describe('observationReplySchema', () => {
  it('accepts a leader, a member on an older epoch and an unreachable member', () => {
    expect(observationReplySchema.parse(reply)).toStrictEqual(reply);
  });

  it.each([
    ['a zxid that is not hex', { ...reply.members[0], zxid: '12' }],
    ['a negative lag', { ...reply.members[0], lag: { kind: 'behind', transactions: -1 } }],
    ['a fractional lag', { ...reply.members[0], lag: { kind: 'behind', transactions: 1.5 } }],
    ['an answering member without a zxid', { ...reply.members[0], zxid: undefined }],
    ['an unreachable member with a mode', { ...reply.members[2], mode: 'follower' }],
    ['an unreachable member without a reason', { ...reply.members[2], problem: undefined }],
  ])('refuses %s', (_what, member) => {
    expect(observationReplySchema.safeParse({ ...reply, members: [member] }).success).toBe(false);
  });

  it('refuses a reply without the time of the look', () => {
    expect(observationReplySchema.safeParse({ ...reply, observedAt: undefined }).success).toBe(false);
  });
});
