// A tenant's ACL and the parents of its path (pure).
import { describe, expect, it } from 'vitest';
import { parentsOf, sameAcl, tenantAcl } from './acl.js';

describe('tenantAcl', () => {
  it("grants everything to the tenant's principal alone", () => {
    expect(tenantAcl({ scheme: 'sasl', id: 'znode-1' })).toEqual([{ perms: 31, scheme: 'sasl', id: 'znode-1' }]);
  });

  it('grants everything to anyone on an ensemble that does not authenticate clients', () => {
    expect(tenantAcl(undefined)).toEqual([{ perms: 31, scheme: 'world', id: 'anyone' }]);
  });
});

describe('sameAcl', () => {
  const a = { perms: 31, scheme: 'sasl', id: 'a' };
  const b = { perms: 1, scheme: 'world', id: 'anyone' };
  it('ignores the order of entries', () => {
    expect(sameAcl([a, b], [b, a])).toBe(true);
  });
  it.each([
    ['another id', [{ ...a, id: 'b' }]],
    ['other permissions', [{ ...a, perms: 1 }]],
    ['an entry more', [a, b]],
  ])('tells apart %s', (_case, other) => {
    expect(sameAcl([a], other)).toBe(false);
  });
});

describe('parentsOf', () => {
  it.each([
    ['/a', []],
    ['/a/b', ['/a']],
    ['/kafka/prod/x', ['/kafka', '/kafka/prod']],
  ])('%s has the parents %j, outermost first', (path, parents) => {
    expect(parentsOf(path)).toEqual(parents);
  });
});
