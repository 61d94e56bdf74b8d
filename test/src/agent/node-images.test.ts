import { describe, expect, it } from 'vitest';
import { pullPolicyOf } from './node-images.js';

describe('pullPolicyOf', () => {
  it('takes the container’s policy when it names one', () => {
    expect(pullPolicyOf('zookeeper:3.9.4', 'Always')).toBe('Always');
    expect(pullPolicyOf('zookeeper', 'Never')).toBe('Never');
    expect(pullPolicyOf('zookeeper:latest', 'IfNotPresent')).toBe('IfNotPresent');
  });

  it('defaults as the kubelet does: Always for :latest or no tag, IfNotPresent for any other tag or a digest', () => {
    expect(pullPolicyOf('zookeeper', undefined)).toBe('Always');
    expect(pullPolicyOf('zookeeper:latest', undefined)).toBe('Always');
    expect(pullPolicyOf('zookeeper:3.9.4', undefined)).toBe('IfNotPresent');
    expect(pullPolicyOf(`zookeeper@sha256:${'0'.repeat(64)}`, undefined)).toBe('IfNotPresent');
  });
});
