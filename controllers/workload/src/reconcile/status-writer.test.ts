// Unit tests of the status comparison that decides whether a status write is needed at all.
import type { ZookeeperWorkloadStatus } from '@zk-oam/apis';
import { describe, expect, it } from 'vitest';
import { appliedHash, canonicalJson, stampAppliedHash } from './applied-hash.js';
import { APPLIED_HASH_ANNOTATION } from './markers.js';
import { sameStatus } from './status-writer.js';

const status: ZookeeperWorkloadStatus = {
  phase: 'Running',
  leader: 'zk-1',
  members: [{ pod: 'zk-0', myid: 1, role: 'follower', synced: true }],
};

describe('sameStatus', () => {
  it('sees a member that fell out of sync', () => {
    expect(sameStatus(status, { ...status, members: [{ pod: 'zk-0', myid: 1, role: 'follower', synced: false }] })).toBe(false);
  });

  it('sees a changed leader, key order aside', () => {
    expect(sameStatus(status, { members: status.members, leader: 'zk-1', phase: 'Running' })).toBe(true);
    expect(sameStatus(status, { ...status, leader: 'zk-0' })).toBe(false);
  });

  it('treats no stored status as different from any status', () => {
    expect(sameStatus(undefined, {})).toBe(false);
  });
});

describe('applied hash', () => {
  it('is the same for equal objects whatever their key order, and differs when a value does', () => {
    expect(appliedHash({ a: 1, b: { c: 2, d: 3 } })).toBe(appliedHash({ b: { d: 3, c: 2 }, a: 1 }));
    expect(appliedHash({ a: 1 })).not.toBe(appliedHash({ a: 2 }));
    expect(canonicalJson({ b: undefined, a: [2, 1] })).toBe('{"a":[2,1]}');
  });

  it('stamps the hash of the object without the stamp into its annotations', () => {
    const object = { metadata: { name: 'zk', annotations: { kept: 'yes' } }, data: { x: '1' } };
    const { object: stamped, hash } = stampAppliedHash(object);
    expect(hash).toBe(appliedHash(object));
    expect(stamped.metadata.annotations).toEqual({ kept: 'yes', [APPLIED_HASH_ANNOTATION]: hash });
  });
});
