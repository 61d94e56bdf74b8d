// Pod IPs: stable per scope and namespace/name, unique, inside 127.64.0.0/10.
import { describe, expect, it } from 'vitest';
import { PodIpAllocator } from './pod-ip.js';

describe('PodIpAllocator', () => {
  it('gives a pod the same loopback address in 127.64.0.0/10 every time, even from a new allocator', () => {
    const first = new PodIpAllocator('/tmp/bed-a').ipFor('ns/zk-0');
    expect(new PodIpAllocator('/tmp/bed-a').ipFor('ns/zk-0')).toBe(first);
    const [a, b] = first.split('.').map(Number);
    expect(a).toBe(127);
    expect(b).toBeGreaterThanOrEqual(64);
    expect(b).toBeLessThan(128);
  });

  it('never hands out one address twice, and never one ending in .0 or .255', () => {
    const allocator = new PodIpAllocator('/tmp/bed-a');
    const ips = Array.from({ length: 2000 }, (_, i) => allocator.ipFor(`ns-${i % 7}/pod-${i}`));
    expect(new Set(ips).size).toBe(ips.length);
    expect(ips.some((ip) => ip.endsWith('.0') || ip.endsWith('.255'))).toBe(false);
  });

  it('gives the same pod name another address in another scope, so that two beds side by side do not collide', () => {
    const names = Array.from({ length: 50 }, (_, i) => `ns/zk-${String(i)}`);
    const a = new PodIpAllocator('/tmp/bed-a');
    const b = new PodIpAllocator('/tmp/bed-b');
    const inA = new Set(names.map((name) => a.ipFor(name)));
    expect(names.some((name) => inA.has(b.ipFor(name)))).toBe(false);
  });
});
