// How far each member is behind the leader, from the zxids one look at the ensemble read (srvr). Within one leader
// epoch the counters are comparable: the difference is the transactions a member has yet to apply. A member on an older
// epoch has not yet synced with this leader; its counter belongs to another history, so no number is given.
import type { Zxid } from './zxid.js';

export type ZxidLag =
  | { kind: 'behind'; transactions: number }
  | { kind: 'olderEpoch'; epoch: number; leaderEpoch: number }
  | { kind: 'unknown'; reason: string };

export interface MemberZxid {
  id: number;
  /** Undefined when the member gave no srvr answer. */
  zxid: Zxid | undefined;
  leads: boolean;
}

/** Each member's lag, by id; `leads` marks the leader (or the standalone server), whose lag is 0. */
export function zxidLags(members: readonly MemberZxid[]): Map<number, ZxidLag> {
  const leader = members.find((member) => member.leads && member.zxid !== undefined)?.zxid;
  return new Map(members.map((member) => [member.id, lagOf(member, leader)]));
}

function lagOf(member: MemberZxid, leader: Zxid | undefined): ZxidLag {
  if (member.zxid === undefined) return { kind: 'unknown', reason: 'the member gave no zxid' };
  if (member.leads) return { kind: 'behind', transactions: 0 };
  if (leader === undefined) return { kind: 'unknown', reason: 'no leader answered' };
  if (member.zxid.epoch < leader.epoch) return { kind: 'olderEpoch', epoch: member.zxid.epoch, leaderEpoch: leader.epoch };
  if (member.zxid.epoch > leader.epoch) return { kind: 'unknown', reason: 'the member is on a newer epoch than the leader answered with (a leader change during the look)' };
  // Members are asked one after another: a follower asked after the leader may already hold a write the leader's answer
  // did not show. It is not behind.
  return { kind: 'behind', transactions: Math.max(0, leader.counter - member.zxid.counter) };
}
