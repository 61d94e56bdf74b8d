// Member identity from pod names.
import { describe, expect, it } from 'vitest';
import { memberName, myidOfPod, podOfMember } from './member-identity.js';

describe('myidOfPod', () => {
  it.each([
    ['zk-0', 1],
    ['zk-main-12', 13],
    ['zk-254', 255],
    ['zk-255', undefined],
    ['zk', undefined],
    ['zk-a', undefined],
  ])('reads %s as myid %s', (pod, myid) => {
    expect(myidOfPod(pod)).toBe(myid);
  });

  it('is the inverse of podOfMember', () => {
    expect(myidOfPod(podOfMember('zk-main', 7))).toBe(7);
  });

  it('names a member with its pod, myid and IP when known', () => {
    expect(memberName({ pod: 'zk-1', myid: 2, ip: '127.64.3.4' })).toBe('zk-1 (myid 2, 127.64.3.4)');
    expect(memberName({ pod: 'zk-1', myid: 2, ip: undefined })).toBe('zk-1 (myid 2)');
  });
});
