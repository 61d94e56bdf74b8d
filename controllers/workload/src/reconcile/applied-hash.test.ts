// Unit tests of the applied hash: what tells a rendered child that changed from one that did not.
import { describe, expect, it } from 'vitest';
import { appliedHash, canonicalJson, stampAppliedHash } from './applied-hash.js';
import { APPLIED_HASH_ANNOTATION } from './resources.js';

describe('applied hash', () => {
  it('is the same for equal objects whatever their key order, and differs when a value does', () => {
    expect(appliedHash({ a: 1, b: { c: 2, d: 3 } })).toBe(appliedHash({ b: { d: 3, c: 2 }, a: 1 }));
    expect(appliedHash({ a: 1 })).not.toBe(appliedHash({ a: 2 }));
    expect(canonicalJson({ b: undefined, a: [2, 1] })).toBe('{"a":[2,1]}');
  });

  it('writes what JSON.stringify gives of the object rebuilt with sorted keys, so hashes stamped before stay the same', () => {
    const sortedKeys = (value: unknown): string =>
      JSON.stringify(value, (_key, inner: unknown) =>
        inner !== null && typeof inner === 'object' && !Array.isArray(inner)
          ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
          : inner,
      );
    const object = {
      spec: { z: [1, undefined, { b: null, a: 'x"y' }], '10': 'ten', '9': 'nine', '4294967295': 'named', '4294967294': 'last index', a10: true, A: 0.5, é: 'e' },
      metadata: { annotations: { 'b/x': '1', 'a/x': '2' }, created: new Date(0), skipped: undefined },
      nested: [[{ d: 1, c: [] }], {}],
    };
    expect(canonicalJson(object)).toBe(sortedKeys(object));
    expect(canonicalJson('text')).toBe('"text"');
  });

  it('stamps the hash of the object without the stamp into its annotations', () => {
    const object = { metadata: { name: 'zk', annotations: { kept: 'yes' } }, data: { x: '1' } };
    const { object: stamped, hash } = stampAppliedHash(object);
    expect(hash).toBe(appliedHash(object));
    expect(stamped.metadata.annotations).toEqual({ kept: 'yes', [APPLIED_HASH_ANNOTATION]: hash });
  });
});
