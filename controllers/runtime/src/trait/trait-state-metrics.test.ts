import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { TraitStateMetrics } from './trait-state-metrics.js';

describe('TraitStateMetrics', () => {
  it('exposes Blocked and the operation start per trait, and drops both when the trait goes', async () => {
    const registry = new Registry();
    const metrics = new TraitStateMetrics(registry, 'ZookeeperScale');
    const key = { namespace: 'prod', name: 'zk-scale' };
    metrics.report(key, { blocked: true, operationStartedAt: new Date('2026-01-01T00:00:00Z') });
    let text = await registry.metrics();
    expect(text).toContain('zookeeper_trait_blocked{kind="ZookeeperScale",namespace="prod",name="zk-scale"} 1');
    expect(text).toContain('zookeeper_trait_operation_started_timestamp_seconds{kind="ZookeeperScale",namespace="prod",name="zk-scale"} 1767225600');
    metrics.report(key, { blocked: false, operationStartedAt: undefined });
    text = await registry.metrics();
    expect(text).toContain('zookeeper_trait_blocked{kind="ZookeeperScale",namespace="prod",name="zk-scale"} 0');
    expect(text).not.toContain('zookeeper_trait_operation_started_timestamp_seconds{');
    metrics.forget(key);
    expect(await registry.metrics()).not.toContain('name="zk-scale"');
  });

  it('shares the gauges between two kinds in one registry', async () => {
    const registry = new Registry();
    new TraitStateMetrics(registry, 'ZookeeperScale').report({ namespace: 'a', name: 's' }, { blocked: false, operationStartedAt: undefined });
    new TraitStateMetrics(registry, 'ZookeeperRolling').report({ namespace: 'a', name: 'r' }, { blocked: true, operationStartedAt: undefined });
    const text = await registry.metrics();
    expect(text).toContain('kind="ZookeeperScale"');
    expect(text).toContain('kind="ZookeeperRolling"');
  });
});
