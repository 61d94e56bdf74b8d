// A dump is as of one zxid only if nothing it read changed before the check: data, children (a child created or
// deleted) and ACL each count, and a znode gone by the check does too.
import { describe, expect, it } from 'vitest';
import { changedPaths, type Versions } from './consistency.js';

const at = (mzxid: bigint, pzxid = mzxid, aversion = 0): Versions => ({ mzxid, pzxid, aversion });
const read = new Map<string, Versions>([
  ['/', at(0n, 5n)],
  ['/a', at(3n)],
  ['/a/b', at(4n)],
]);

describe('changedPaths', () => {
  it('finds nothing when every check matches its read', () => {
    expect(changedPaths(read, new Map(read))).toEqual([]);
  });

  it.each([
    ['its data changed', '/a/b', at(9n, 4n)],
    ['a child was created or deleted under it', '/a', at(3n, 9n)],
    ['its ACL changed', '/a', at(3n, 3n, 1)],
    ['it was deleted', '/a/b', undefined],
  ])('names a znode when %s', (_case, path, again) => {
    const checked = new Map<string, Versions | undefined>(read);
    checked.set(path, again);
    expect(changedPaths(read, checked)).toEqual([path]);
  });

  it('counts a znode the check never reached as changed', () => {
    expect(changedPaths(read, new Map([['/', at(0n, 5n)]]))).toEqual(['/a', '/a/b']);
  });
});
