// The lag of each member behind the leader, as the console shows it.
import { describe, expect, it } from 'vitest';
import { parseZxid } from './zxid.js';
import { zxidLags } from './zxid-lag.js';

const member = (id: number, zxid: string | undefined, leads = false) => ({ id, zxid: zxid === undefined ? undefined : parseZxid(zxid), leads });

describe('zxidLags', () => {
  it('gives the leader 0 and a follower of the same epoch the difference of the counters', () => {
    const lags = zxidLags([member(1, '0x200000010', true), member(2, '0x20000000c'), member(3, '0x200000010')]);
    expect([...lags]).toEqual([
      [1, { kind: 'behind', transactions: 0 }],
      [2, { kind: 'behind', transactions: 4 }],
      [3, { kind: 'behind', transactions: 0 }],
    ]);
  });

  it('says a member on an older epoch is there instead of a number', () => {
    expect(zxidLags([member(1, '0x300000002', true), member(2, '0x2000000ff')]).get(2)).toEqual({ kind: 'olderEpoch', epoch: 2, leaderEpoch: 3 });
  });

  it('says an unreachable member has no known lag, and the others still get theirs', () => {
    const lags = zxidLags([member(1, '0x100000005', true), member(2, undefined), member(3, '0x100000003')]);
    expect(lags.get(2)).toEqual({ kind: 'unknown', reason: 'the member gave no zxid' });
    expect(lags.get(3)).toEqual({ kind: 'behind', transactions: 2 });
  });

  it('knows no lag when no leader answered', () => {
    expect(zxidLags([member(1, '0x100000005'), member(2, '0x100000003')]).get(1)).toEqual({ kind: 'unknown', reason: 'no leader answered' });
  });

  it('never gives a negative number to a follower asked after the leader took a write', () => {
    expect(zxidLags([member(1, '0x100000005', true), member(2, '0x100000007')]).get(2)).toEqual({ kind: 'behind', transactions: 0 });
  });

  it('does not compare a member on a newer epoch than the leader answered with', () => {
    expect(zxidLags([member(1, '0x100000005', true), member(2, '0x200000001')]).get(2)).toMatchObject({ kind: 'unknown' });
  });
});
