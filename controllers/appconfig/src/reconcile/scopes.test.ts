// Unit tests of scope membership in the status: which scopes each workload is recorded in, what telling them gave as
// Synced problems, which memberships are left when a component leaves a scope or the spec, and when the
// ApplicationConfiguration needs the scope finalizer.
import { describe, expect, it } from 'vitest';
import { appConfig, catalog, component } from '../render/fixtures.js';
import { renderApplication } from '../render/render.js';
import type { ApplyResult } from './apply-rendered.js';
import { needsScopeFinalizer } from './scope-finalizer.js';
import { departedEntries, entryKey, scopeEntries, type ScopeResult } from './scopes.js';
import { nextStatus } from './status.js';

const now = new Date('2026-11-25T10:00:00Z');
const health = { apiVersion: 'core.oam.dev/v1alpha2', kind: 'HealthScope', name: 'health' };
const edge = { apiVersion: 'core.oam.dev/v1alpha2', kind: 'HealthScope', name: 'edge' };
const workloadRef = { apiVersion: 'workload.zookeeper.zkoam.dev/v1alpha1', kind: 'ZookeeperWorkload', name: 'orders-zk' };
const [entry] = appConfig.spec.components;
const inScopes = (...scopes: (typeof health)[]) => ({ ...appConfig, spec: { components: [{ ...entry, scopes: scopes.map((scopeRef) => ({ scopeRef })) }] } });
const applied: ApplyResult = { kind: 'applied', verb: 'Unchanged' };
const allApplied = new Map<string, ApplyResult>([
  ['workload.zookeeper.zkoam.dev/v1alpha1/ZookeeperWorkload/orders-zk', applied],
  ['scale.zookeeper.zkoam.dev/v1alpha1/ZookeeperScale/zk-zookeeperscale', applied],
  ['rolling.zookeeper.zkoam.dev/v1alpha1/ZookeeperRolling/orders-roll', applied],
]);

function statusOf(config: ReturnType<typeof inScopes>, told: ReadonlyMap<string, ScopeResult> = new Map()) {
  const rendered = renderApplication({ appConfig: config, components: new Map([['zk', component]]), revisions: new Map(), catalog });
  return nextStatus({ rendered, applied: allApplied, previous: undefined, history: [], unsatisfied: [], scopes: told, generation: 1, now });
}

describe('scope membership', () => {
  it('records each scope of a workload in its status entry, and none when it is in no scope', () => {
    expect(statusOf(inScopes(health, edge)).status.workloads?.[0]?.scopes).toStrictEqual([{ scopeRef: health }, { scopeRef: edge }]);
    expect(statusOf(inScopes()).status.workloads?.[0]).not.toHaveProperty('scopes');
    expect(scopeEntries(statusOf(inScopes(health, edge)).status)).toStrictEqual([
      { workload: workloadRef, scope: health },
      { workload: workloadRef, scope: edge },
    ]);
  });

  it('makes a scope that could not be told a Synced problem, while a told one is none', () => {
    const refused: ScopeResult = { kind: 'refused', reason: 'ScopeNotFound', message: 'scope HealthScope edge does not exist, so ZookeeperWorkload orders-zk is not in it yet' };
    const told = new Map<string, ScopeResult>([
      [entryKey({ workload: workloadRef, scope: health }), { kind: 'told' }],
      [entryKey({ workload: workloadRef, scope: edge }), refused],
    ]);
    const { status, problems } = statusOf(inScopes(health, edge), told);
    expect(problems).toStrictEqual([{ reason: 'ScopeNotFound', message: refused.message }]);
    expect(status.conditions?.find((condition) => condition.type === 'Synced')).toMatchObject({ status: 'False', reason: 'ScopeNotFound' });
    // Recorded anyway: leaving a scope the workload never entered is harmless, forgetting one it entered is not.
    expect(status.workloads?.[0]?.scopes).toStrictEqual([{ scopeRef: health }, { scopeRef: edge }]);
  });

  it('leaves the scopes a component no longer names, and all of them when its workload leaves the spec', () => {
    const before = scopeEntries(statusOf(inScopes(health, edge)).status);
    expect(departedEntries(before, scopeEntries(statusOf(inScopes(health)).status))).toStrictEqual([{ workload: workloadRef, scope: edge }]);
    expect(departedEntries(before, scopeEntries(statusOf(inScopes(health, edge)).status))).toStrictEqual([]);
    const renamed = { ...inScopes(health, edge), spec: { components: [{ ...entry, parameterValues: [{ name: 'instance', value: 'payments-zk' }], scopes: [{ scopeRef: health }] }] } };
    const moved = { ...workloadRef, name: 'payments-zk' };
    expect(scopeEntries(statusOf(renamed).status)).toStrictEqual([{ workload: moved, scope: health }]);
    expect(departedEntries(before, scopeEntries(statusOf(renamed).status))).toStrictEqual(before);
  });

  it('needs the finalizer while a component names a scope or the status still records a workload in one', () => {
    const noScopes = inScopes();
    expect(needsScopeFinalizer(inScopes(health), undefined)).toBe(true);
    expect(needsScopeFinalizer(noScopes, statusOf(inScopes(health)).status)).toBe(true);
    expect(needsScopeFinalizer(noScopes, statusOf(noScopes).status)).toBe(false);
  });
});
