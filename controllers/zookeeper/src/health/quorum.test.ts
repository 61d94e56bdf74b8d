// Quorum arithmetic and the invariant-1 safety check, as tables.
import { describe, expect, it } from 'vitest';
import { majorityAfter, quorumSize, toleratedFailures } from './quorum.js';

describe('quorum arithmetic', () => {
  it.each([
    [1, 1, 0],
    [2, 2, 0],
    [3, 2, 1],
    [4, 3, 1],
    [5, 3, 2],
    [6, 4, 2],
    [7, 4, 3],
  ])('%i voters need %i for a quorum and tolerate %i down', (voters, quorum, tolerated) => {
    expect(quorumSize(voters)).toBe(quorum);
    expect(toleratedFailures(voters)).toBe(tolerated);
  });
});

describe('majorityAfter (invariant 1)', () => {
  it.each([
    ['adding 4 to 1-3 while all stay up', [1, 2, 3, 4], [1, 2, 3], [1, 2, 3, 4], true],
    ['adding 4 to 1-3 while 3 is down', [1, 2, 4], [1, 2, 3], [1, 2, 3, 4], true],
    ['adding 4 to 1-3 while 3 is down and 4 has not started', [1, 2], [1, 2, 3], [1, 2, 3, 4], false],
    ['removing 5 from 1-5 while all stay up', [1, 2, 3, 4], [1, 2, 3, 4, 5], [1, 2, 3, 4], true],
    ['removing 3 from 1-3 with 2 down', [1], [1, 2, 3], [1, 2], false],
    ['growing 3 to 7 in one step', [1, 2, 3, 4, 5, 6, 7], [1, 2, 3], [1, 2, 3, 4, 5, 6, 7], true],
    ['growing 3 to 7 in one step with the joiners down', [1, 2, 3], [1, 2, 3], [1, 2, 3, 4, 5, 6, 7], false],
    ['restarting one member of 3', [1, 2], [1, 2, 3], [1, 2, 3], true],
    ['restarting two members of 3', [1], [1, 2, 3], [1, 2, 3], false],
    ['shrinking 5 to 3 with the two leaving already down', [1, 2, 3], [1, 2, 3, 4, 5], [1, 2, 3], true],
  ])('%s: %j of %j -> %j is safe: %s', (_name, staying, oldVoters, newVoters, safe) => {
    expect(majorityAfter(staying, oldVoters, newVoters).ok).toBe(safe);
  });

  it('says which configuration would lose its majority and by how much', () => {
    expect(majorityAfter([1, 2], [1, 2, 3], [1, 2, 3, 4, 5])).toEqual({
      ok: false,
      configuration: 'new',
      reason: 'only 2 of the 5 new voters stay up, 3 needed',
    });
  });

  it('never calls an empty configuration safe', () => {
    expect(majorityAfter([1], [], [1]).ok).toBe(false);
  });
});
