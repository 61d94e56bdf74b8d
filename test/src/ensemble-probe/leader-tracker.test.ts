import { describe, expect, it } from 'vitest';
import { summarise, type Sample } from './leader-tracker.js';

const at = (seconds: number, ip?: string, epoch = 1n): Sample => ({ at: seconds * 1000, leader: ip === undefined ? undefined : { ip, epoch } });

describe('summarise', () => {
  it('counts nothing for a steady leader', () => {
    expect(summarise([at(0, 'a'), at(1, 'a'), at(2, 'a')])).toEqual({ elections: 0, leaderChanges: 0, noLeaderMs: 0, leaders: ['a'], polls: 3 });
  });

  it('counts one election and the time without a leader when another member takes over', () => {
    expect(summarise([at(0, 'a'), at(1), at(1.5), at(2, 'b', 2n), at(3, 'b', 2n)])).toMatchObject({
      elections: 1,
      leaderChanges: 1,
      noLeaderMs: 1000,
      leaders: ['a', 'b'],
    });
  });

  it('counts an election that re-elects the same member by its new epoch', () => {
    expect(summarise([at(0, 'a'), at(1), at(2, 'a', 2n)])).toMatchObject({ elections: 1, leaderChanges: 0 });
  });

  it('counts an election the polls did not see as a gap', () => {
    expect(summarise([at(0, 'a'), at(1, 'b', 2n), at(2, 'c', 3n)])).toMatchObject({ elections: 2, leaderChanges: 2, noLeaderMs: 0 });
  });
});
