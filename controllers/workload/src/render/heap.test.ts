// JVM heap: explicit, derived from the memory limit, or the default.
import { describe, expect, it } from 'vitest';
import { heapMiB, jvmFlags } from './heap.js';

describe('heapMiB', () => {
  it.each([
    ['spec.jvm.heap when set', { jvm: { heap: '1536Mi' }, resources: { limits: { memory: '4Gi' } } }, 1536],
    ['75% of a 2Gi memory limit', { resources: { limits: { memory: '2Gi' } } }, 1536],
    ['75% of a decimal 1G limit, rounded down', { resources: { limits: { memory: '1G' } } }, 715],
    ['512Mi without a limit', { resources: { requests: { memory: '4Gi' } } }, 512],
    ['512Mi with no resources at all', {}, 512],
  ])('takes %s', (_, spec, expected) => {
    expect(heapMiB(spec)).toBe(expected);
  });

  it('sets -Xms and -Xmx alike, a DNS cache of 1 s, then the extra options in order', () => {
    expect(jvmFlags({ jvm: { heap: '256Mi', extraOptions: ['-XX:+UseG1GC', '-Dx=y'] } })).toEqual(['-Xms256m', '-Xmx256m', '-Dsun.net.inetaddr.ttl=1', '-Dsun.net.inetaddr.negative.ttl=1', '-XX:+UseG1GC', '-Dx=y']);
  });
});
