// The observation request-reply's answer: built from one look, kept per workload until it is deleted, given only by the
// leading replica and only for the workload its subject names.
import { observationReplySchema, observationSubject } from '@zk-oam/apis';
import { parseZxid, type ObservedPod } from '@zk-oam/zookeeper';
import { describe, expect, it } from 'vitest';
import { committed, ensemble, follower, leader, notServing, NOW, server } from '../observe/test-fixtures.js';
import { LatestObservations } from './latest.js';
import { observationReply } from './reply.js';
import { observationResponder } from './responder.js';

const zk = { namespace: 'prod', name: 'zk', uid: 'uid-1' };
const config = committed([server(1), server(2), server(3)]);

function withZxid(member: ObservedPod, zxid: string): ObservedPod {
  const srvr = member.observation.srvr;
  if (srvr === undefined) throw new Error('the fixture member has no srvr answer');
  return { ...member, observation: { ...member.observation, srvr: { ...srvr, zxid: parseZxid(zxid) } } };
}

describe('observationReply', () => {
  it('gives each member its mode, zxid and lag behind the leader, and says why an unreachable one has none', () => {
    const look = ensemble([withZxid(leader(1), '0x200000009'), withZxid(follower(2), '0x200000007'), notServing(3)], config);
    const reply = observationReply(zk, look, NOW);
    expect(reply).toStrictEqual({
      workload: zk,
      observedAt: '2026-11-22T05:00:00.000Z',
      members: [
        { pod: 'zk-0', myid: 1, answered: true, mode: 'leader', zxid: '0x200000009', lag: { kind: 'behind', transactions: 0 } },
        { pod: 'zk-1', myid: 2, answered: true, mode: 'follower', zxid: '0x200000007', lag: { kind: 'behind', transactions: 2 } },
        { pod: 'zk-2', myid: 3, answered: false, mode: 'none', problem: 'is not serving requests', lag: { kind: 'unknown', reason: 'the member gave no zxid' } },
      ],
    });
    expect(observationReplySchema.parse(reply)).toStrictEqual(reply);
  });

  it('has no member while there was no pod to ask', () => {
    expect(observationReply(zk, undefined, NOW).members).toEqual([]);
  });
});

describe('observationResponder', () => {
  const observations = new LatestObservations();
  observations.record(zk, ensemble([leader(1), follower(2)], config), NOW);
  const request = { namespace: 'prod', name: 'zk' };
  const subject = observationSubject('prod', 'zk');

  it('answers with the latest look while this replica leads', () => {
    expect(observationResponder(observations, () => true).handle(request, subject)).toMatchObject({ workload: zk, members: [{ pod: 'zk-0' }, { pod: 'zk-1' }] });
  });

  it('stays silent on a standby replica, so that the leader answers', () => {
    expect(observationResponder(observations, () => false).handle(request, subject)).toBeUndefined();
  });

  it('stays silent about a workload it has not looked at, and for a body sent on another workload\'s subject', () => {
    const responder = observationResponder(observations, () => true);
    expect(responder.handle({ namespace: 'prod', name: 'other' }, observationSubject('prod', 'other'))).toBeUndefined();
    expect(responder.handle(request, observationSubject('prod', 'other'))).toBeUndefined();
  });

  it('forgets a workload that is gone', () => {
    const kept = new LatestObservations();
    kept.record(zk, undefined, NOW);
    kept.forget({ namespace: 'prod', name: 'zk' });
    expect(observationResponder(kept, () => true).handle(request, subject)).toBeUndefined();
  });
});
