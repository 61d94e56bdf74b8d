// The pod-template config hash changes exactly when what a running member read at start changes.
import { describe, expect, it } from 'vitest';
import { configHash } from './config-hash.js';
import { buildConfigMap } from './config-map.js';
import { minimalWorkload, withSpec } from './test-workloads.js';

const base = minimalWorkload();
const hashOf = (workload = base, initialMembers = 3): string => configHash(buildConfigMap(workload, initialMembers, 'Plain'));

describe('configHash', () => {
  it('is the same for the same workload', () => {
    expect(hashOf()).toBe(hashOf(minimalWorkload()));
  });

  it.each([
    ['a tunable', (spec) => ({ ...spec, config: { ...spec.config, tickTime: 3000 } })],
    ['an additional config line', (spec) => ({ ...spec, config: { ...spec.config, additionalConfig: { 'jute.maxbuffer': '4194304' } } })],
    ['metrics', (spec) => ({ ...spec, metrics: { enabled: true, port: 7000 } })],
  ] satisfies [string, Parameters<typeof withSpec>[1]][])('changes with %s', (_, change) => {
    expect(hashOf(withSpec(base, change))).not.toBe(hashOf());
  });

  it('ignores changes that do not reach zoo.cfg or the scripts: replicas, resources, the initial membership', () => {
    const changed = withSpec(base, (spec) => ({ ...spec, replicas: 5, resources: { limits: { memory: '1Gi' } } }));
    expect(hashOf(changed, 5)).toBe(hashOf());
  });
});
