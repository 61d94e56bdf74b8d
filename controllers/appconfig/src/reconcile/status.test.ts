// Unit tests of the status: Synced and workloads[] from render and apply outcomes, references kept while a component
// fails (so nothing it rendered is pruned), and the stale references that pruning deletes.
import { describe, expect, it } from 'vitest';
import { appConfig, catalog, component } from '../render/fixtures.js';
import { renderApplication } from '../render/render.js';
import type { ApplyResult } from './apply-rendered.js';
import { stale } from './prune.js';
import { nextStatus, referencedObjects, type ApplicationConfigurationStatus } from './status.js';

const now = new Date('2026-11-22T14:00:00.700Z');
const rendered = renderApplication({ appConfig, components: new Map([['zk', component]]), revisions: new Map(), catalog });
const workloadRef = { apiVersion: 'workload.zookeeper.zkoam.dev/v1alpha1', kind: 'ZookeeperWorkload', name: 'orders-zk' };
const scaleRef = { apiVersion: 'scale.zookeeper.zkoam.dev/v1alpha1', kind: 'ZookeeperScale', name: 'zk-zookeeperscale' };
const rollingRef = { apiVersion: 'rolling.zookeeper.zkoam.dev/v1alpha1', kind: 'ZookeeperRolling', name: 'orders-roll' };
const applied: ApplyResult = { kind: 'applied', verb: 'Created' };
const allApplied = new Map<string, ApplyResult>([
  ['workload.zookeeper.zkoam.dev/v1alpha1/ZookeeperWorkload/orders-zk', applied],
  ['scale.zookeeper.zkoam.dev/v1alpha1/ZookeeperScale/zk-zookeeperscale', applied],
  ['rolling.zookeeper.zkoam.dev/v1alpha1/ZookeeperRolling/orders-roll', applied],
]);
const healthy: ApplicationConfigurationStatus = {
  observedGeneration: 1,
  conditions: [{ type: 'Synced', status: 'True', reason: 'ReconcileSuccess', message: 'every workload and trait is applied', observedGeneration: 1, lastTransitionTime: '2026-11-22T14:00:00Z' }],
  status: 'running',
  workloads: [
    {
      componentName: 'zk',
      componentRevisionName: 'zk-v2',
      workloadRef,
      traits: [
        { traitRef: scaleRef, status: 'applied' },
        { traitRef: rollingRef, status: 'applied' },
      ],
    },
  ],
};

describe('nextStatus', () => {
  it('reports Synced=True and every workload and trait reference when all is applied', () => {
    expect(nextStatus({ rendered, applied: allApplied, previous: undefined, history: [], unsatisfied: [], scopes: new Map(), generation: 1, now })).toStrictEqual({ status: healthy, problems: [] });
  });

  it('reports a refused trait as an error with its message, and Synced=False with the refusal as reason', () => {
    const conflict: ApplyResult = { kind: 'refused', reason: 'FieldConflict', message: 'ZookeeperScale zk-zookeeperscale: conflict with "kubectl" on .spec.replicas' };
    const results = new Map(allApplied).set('scale.zookeeper.zkoam.dev/v1alpha1/ZookeeperScale/zk-zookeeperscale', conflict);
    const later = new Date('2026-11-22T14:05:00Z');
    const { status, problems } = nextStatus({ rendered, applied: results, previous: healthy, history: [], unsatisfied: [], scopes: new Map(), generation: 2, now: later });
    expect(problems).toStrictEqual([{ reason: 'FieldConflict', message: conflict.message }]);
    expect(status.conditions).toStrictEqual([
      { type: 'Synced', status: 'False', reason: 'FieldConflict', message: conflict.message, observedGeneration: 2, lastTransitionTime: '2026-11-22T14:05:00Z' },
    ]);
    expect(status.status).toBe('error');
    expect(status.workloads?.[0]?.traits?.[0]).toStrictEqual({ traitRef: scaleRef, status: 'error', message: conflict.message });
  });

  it("keeps the status other controllers wrote into workloads[] and traits[] for the same revision, as oam-kubernetes-runtime does", () => {
    const written: ApplicationConfigurationStatus = {
      ...healthy,
      workloads: [{ ...healthy.workloads?.[0], componentName: 'zk', componentRevisionName: 'zk-v2', workloadRef, status: 'healthy', traits: [{ traitRef: scaleRef, status: 'scaled to 5' }, { traitRef: rollingRef, status: 'applied' }] }],
    };
    const next = nextStatus({ rendered, applied: allApplied, previous: written, history: [], unsatisfied: [], scopes: new Map(), generation: 2, now }).status.workloads?.[0];
    expect(next?.status).toBe('healthy');
    expect(next?.traits).toStrictEqual([
      { traitRef: scaleRef, status: 'scaled to 5' },
      { traitRef: rollingRef, status: 'applied' },
    ]);
    // Our error wins while it lasts; what was written for another revision is not carried to a new one.
    const conflict: ApplyResult = { kind: 'refused', reason: 'FieldConflict', message: 'conflict' };
    const refused = nextStatus({ rendered, applied: new Map(allApplied).set('scale.zookeeper.zkoam.dev/v1alpha1/ZookeeperScale/zk-zookeeperscale', conflict), previous: written, history: [], unsatisfied: [], scopes: new Map(), generation: 2, now });
    expect(refused.status.workloads?.[0]?.traits?.[0]).toStrictEqual({ traitRef: scaleRef, status: 'error', message: 'conflict' });
    const otherRevision: ApplicationConfigurationStatus = { ...written, workloads: written.workloads?.map((entry) => ({ ...entry, componentRevisionName: 'zk-v1' })) };
    const moved = nextStatus({ rendered, applied: allApplied, previous: otherRevision, history: [], unsatisfied: [], scopes: new Map(), generation: 2, now }).status.workloads?.[0];
    expect(moved?.status).toBeUndefined();
    expect(moved?.traits?.[0]).toStrictEqual({ traitRef: scaleRef, status: 'applied' });
  });

  it('keeps the references of a component whose Component went missing, so pruning leaves its objects alone', () => {
    const missing = renderApplication({ appConfig, components: new Map(), revisions: new Map(), catalog });
    const { status, problems } = nextStatus({ rendered: missing, applied: new Map(), previous: healthy, history: [], unsatisfied: [], scopes: new Map(), generation: 1, now });
    expect(problems).toStrictEqual([{ reason: 'ComponentNotFound', message: 'Component zk is not in this namespace' }]);
    expect(status.workloads).toStrictEqual(healthy.workloads);
    expect(stale(referencedObjects(healthy), referencedObjects(status))).toStrictEqual([]);
  });

  it('lists a trait removed from the spec as stale, and nothing else', () => {
    const withoutRolling = { ...appConfig, spec: { components: [{ ...appConfig.spec.components[0], traits: appConfig.spec.components[0]?.traits?.slice(0, 1) }] } };
    const next = nextStatus({ rendered: renderApplication({ appConfig: withoutRolling, components: new Map([['zk', component]]), revisions: new Map(), catalog }), applied: allApplied, previous: healthy, history: [], unsatisfied: [], scopes: new Map(), generation: 2, now });
    expect(stale(referencedObjects(healthy), referencedObjects(next.status))).toStrictEqual([rollingRef]);
  });

  it('lists a removed component\'s workload and its traits as stale', () => {
    const next = nextStatus({ rendered: renderApplication({ appConfig: { ...appConfig, spec: { components: [] } }, components: new Map(), revisions: new Map(), catalog }), applied: new Map(), previous: healthy, history: [], unsatisfied: [], scopes: new Map(), generation: 3, now });
    expect(next.status.workloads).toStrictEqual([]);
    expect(stale(referencedObjects(healthy), referencedObjects(next.status))).toStrictEqual([workloadRef, scaleRef, rollingRef]);
  });
});
