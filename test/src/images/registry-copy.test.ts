import { describe, expect, it } from 'vitest';
import { isLoopbackRegistry, pushedReference } from './registry-copy.js';

describe('pushedReference', () => {
  it('puts the image name and tag under the registry and its prefix', () => {
    expect(pushedReference('registry.example:5000/team/', { reference: 'ghcr.io/zk-oam/workload:0.1.0' })).toBe('registry.example:5000/team/workload:0.1.0');
  });
});

describe('isLoopbackRegistry', () => {
  it.each(['127.0.0.1:5000/zk-oam', '127.64.3.9/zk-oam/workload:0.1.0', 'localhost:5000', 'localhost/zk-oam', '[::1]:5000/zk-oam'])('%s is on loopback: plain HTTP', (registry) => {
    expect(isLoopbackRegistry(registry)).toBe(true);
  });

  it.each(['registry.example.com/zk-oam', 'registry.example.com:5000', '10.0.0.1:5000/zk-oam', '127.0.0.1.example.com/zk-oam', 'localhost.example.com:5000'])('%s is not: TLS', (registry) => {
    expect(isLoopbackRegistry(registry)).toBe(false);
  });
});
