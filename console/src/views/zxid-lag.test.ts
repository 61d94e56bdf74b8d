// Each member's zxid lag in the info: from the workload controller's answer, or unknown for every member with the
// reason there is none.
import { parseResource, ZOOKEEPER_WORKLOAD, zookeeperWorkloadSchema, type ObservationReply } from '@zk-oam/apis';
import { describe, expect, it } from 'vitest';
import { membersLagSchema, membersWithLag } from './zxid-lag.js';

const workload = parseResource(
  zookeeperWorkloadSchema,
  {
    apiVersion: ZOOKEEPER_WORKLOAD.apiVersion,
    kind: 'ZookeeperWorkload',
    metadata: { name: 'zk', namespace: 'team-a', uid: 'uid-1' },
    spec: { replicas: 3 },
    status: {
      members: [
        { pod: 'zk-0', myid: 1, role: 'follower', synced: true, voting: true },
        { pod: 'zk-1', myid: 2, role: 'leader', synced: true, voting: true },
        { pod: 'zk-2', myid: 3, role: 'unknown', synced: false, voting: true },
      ],
    },
  },
  'workload',
);

const reply: ObservationReply = {
  workload: { namespace: 'team-a', name: 'zk', uid: 'uid-1' },
  observedAt: '2026-11-25T21:00:00.000Z',
  members: [
    { pod: 'zk-0', myid: 1, answered: true, mode: 'follower', zxid: '0x100000004', lag: { kind: 'behind', transactions: 3 } },
    { pod: 'zk-1', myid: 2, answered: true, mode: 'leader', zxid: '0x100000007', lag: { kind: 'behind', transactions: 0 } },
    { pod: 'zk-2', myid: 3, answered: false, mode: 'none', problem: 'does not answer: ECONNREFUSED', lag: { kind: 'unknown', reason: 'the member gave no zxid' } },
  ],
};

describe('membersWithLag', () => {
  it("adds each member's zxid and lag from the answer, and when the look was made", () => {
    const shown = membersWithLag(workload, { ok: true, reply });
    expect(shown.zxid).toStrictEqual({ available: true, observedAt: '2026-11-25T21:00:00.000Z' });
    expect(shown.members).toStrictEqual([
      { pod: 'zk-0', myid: 1, role: 'follower', synced: true, voting: true, zxid: '0x100000004', zxidLag: { kind: 'behind', transactions: 3 } },
      { pod: 'zk-1', myid: 2, role: 'leader', synced: true, voting: true, zxid: '0x100000007', zxidLag: { kind: 'behind', transactions: 0 } },
      { pod: 'zk-2', myid: 3, role: 'unknown', synced: false, voting: true, zxidLag: { kind: 'unknown', reason: 'the member gave no zxid' } },
    ]);
    expect(membersLagSchema.parse(shown)).toStrictEqual(shown);
  });

  it('says the lag is unavailable and why when there is no answer, member by member too', () => {
    const shown = membersWithLag(workload, { ok: false, reason: 'no workload controller answers on NATS' });
    expect(shown.zxid).toStrictEqual({ available: false, reason: 'no workload controller answers on NATS' });
    expect(shown.members.map((member) => member.zxidLag)).toStrictEqual(Array(3).fill({ kind: 'unknown', reason: 'no workload controller answers on NATS' }));
  });

  it('shows no lag from an answer about another workload of the same name', () => {
    const shown = membersWithLag(workload, { ok: true, reply: { ...reply, workload: { ...reply.workload, uid: 'uid-2' } } });
    expect(shown.zxid).toMatchObject({ available: false, reason: expect.stringContaining('another workload') });
    expect(shown.members.every((member) => member.zxidLag.kind === 'unknown' && member.zxid === undefined)).toBe(true);
  });

  it('says a member the look did not see has no known lag', () => {
    const shown = membersWithLag(workload, { ok: true, reply: { ...reply, members: reply.members.slice(0, 2) } });
    expect(shown.members[2]?.zxidLag).toStrictEqual({ kind: 'unknown', reason: 'not in the latest look at the ensemble' });
  });
});
