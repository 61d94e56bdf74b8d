// What the walk read of a znode is as of the dump's point when nothing counted changed, when its only data change came
// after the point, or when children were only created; a znode created since is in the dump when it existed at the
// point and nothing changed it after. Everything else is a change that makes the dump try again.
import { describe, expect, it } from 'vitest';
import type { Stat } from '../wire/packets.js';
import { judge, judgeNew, type Sighting } from './consistency.js';

const POINT = 100n;
const stat = (overrides: Partial<Stat> = {}): Stat => ({ czxid: 10n, mzxid: 20n, pzxid: 30n, version: 1, cversion: 2, aversion: 0, ephemeralOwner: 0n, numChildren: 2, ...overrides });
const read: Sighting = { stat: stat(), children: ['a', 'b'] };
const checked = (overrides: Partial<Stat>, children: readonly string[] = ['a', 'b']): Sighting => ({ stat: stat(overrides), children });

describe('judge', () => {
  it('takes a znode nothing changed as read', () => {
    expect(judge(read, checked({}), POINT)).toEqual({ kind: 'asRead' });
  });

  it('takes one data change after the point as read: at the point the data was what the walk read', () => {
    expect(judge(read, checked({ version: 2, mzxid: 120n }), POINT)).toEqual({ kind: 'asRead' });
  });

  it('names the children created since the read, when none was removed', () => {
    expect(judge(read, checked({ cversion: 4, numChildren: 4 }, ['a', 'b', 'c', 'd']), POINT)).toEqual({ kind: 'childrenAdded', added: ['c', 'd'] });
  });

  it.each([
    ['deleted', undefined, 'deleted'],
    ['its data changed before the point', checked({ version: 2, mzxid: 90n }), 'data'],
    ['its data changed twice', checked({ version: 3, mzxid: 120n }), 'data'],
    ['its ACL changed', checked({ aversion: 1 }), 'acl'],
    ['a child was removed', checked({ cversion: 3, numChildren: 1 }, ['a']), 'children'],
    ['a child was created and another removed', checked({ cversion: 4 }, ['a', 'c']), 'children'],
    ['a child was created and removed again', checked({ cversion: 5, numChildren: 3 }, ['a', 'b', 'c']), 'children'],
  ] as const)('finds a change when %s', (_case, again, what) => {
    expect(judge(read, again, POINT)).toEqual({ kind: 'changed', what });
  });
});

describe('judgeNew', () => {
  it('leaves out a znode created after the point', () => {
    expect(judgeNew(stat({ czxid: 101n, version: 3 }), POINT)).toBe('after');
  });

  it('takes a znode created by the point and untouched since as read, children created since included', () => {
    expect(judgeNew(stat({ czxid: 90n, version: 0, cversion: 3, numChildren: 3 }), POINT)).toBe('asRead');
  });

  it.each([
    ['its data was set', { version: 1 }],
    ['its ACL was set', { aversion: 1 }],
    ['a child of it was removed', { cversion: 3, numChildren: 1 }],
  ])('finds a change when %s after its creation', (_case, overrides) => {
    expect(judgeNew(stat({ czxid: 90n, version: 0, cversion: 0, numChildren: 0, ...overrides }), POINT)).toBe('changed');
  });
});
