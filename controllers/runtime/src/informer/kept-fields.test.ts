import { describe, expect, it } from 'vitest';
import { keepFields, keptFieldsChanged, keptFieldsChangedIn } from './kept-fields.js';

/** What every transform keeps. */
const identity = {
  name: 'zk',
  namespace: 'ns',
  uid: 'u-1',
  resourceVersion: '7',
  generation: 2,
  labels: { app: 'zk' },
  ownerReferences: [{ apiVersion: 'zookeeper.zkoam.dev/v1alpha1', kind: 'ZookeeperWorkload', name: 'zk', uid: 'w-1', controller: true }],
};

const statefulSet = {
  apiVersion: 'apps/v1',
  kind: 'StatefulSet',
  metadata: {
    ...identity,
    annotations: { 'zkoam.dev/applied-hash': 'abc' },
    managedFields: [{ manager: 'kube-controller-manager' }],
    creationTimestamp: '2026-11-24T10:00:00Z',
  },
  spec: { replicas: 3, selector: { matchLabels: { app: 'zk' } }, template: { spec: { containers: [{ name: 'zookeeper', image: 'zookeeper:3.8' }] } } },
  status: { replicas: 3, readyReplicas: 3, currentRevision: 'zk-1', updateRevision: 'zk-2' },
};

describe('keepFields', () => {
  it('keeps identity metadata and the listed paths, and drops the rest', () => {
    const transform = keepFields({ annotations: true, paths: [['spec', 'replicas'], ['spec', 'selector'], ['status', 'updateRevision']] });
    expect(transform(statefulSet)).toEqual({
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { ...identity, annotations: statefulSet.metadata.annotations },
      spec: { replicas: 3, selector: { matchLabels: { app: 'zk' } } },
      status: { updateRevision: 'zk-2' },
    });
  });

  it('leaves out annotations unless asked, and paths the object does not have', () => {
    const kept = keepFields({ paths: [['status', 'podIP'], ['data']] })(statefulSet);
    expect(kept['metadata']).not.toHaveProperty('annotations');
    expect(kept).not.toHaveProperty('status');
    expect(kept).not.toHaveProperty('data');
    expect(kept).not.toHaveProperty('spec');
  });

  it('keeps a deletion mark, so a cached object being deleted is seen as such', () => {
    const deleting = { metadata: { name: 'zk-0', deletionTimestamp: '2026-11-24T10:00:00Z' } };
    expect(keepFields({})(deleting)).toEqual(deleting);
  });

  it('is the same transform for the same fields, so informers that keep alike can share their parse', () => {
    const podFields = () => keepFields({ paths: [['status', 'podIP'], ['status', 'conditions']] });
    expect(podFields()).toBe(podFields());
    expect(keepFields({ annotations: true, paths: [['status', 'podIP'], ['status', 'conditions']] })).not.toBe(podFields());
    expect(keepFields({ paths: [['status', 'podIP']] })).not.toBe(podFields());
  });
});

describe('keptFieldsChanged', () => {
  const keepPodIP = keepFields({ paths: [['status', 'podIP']] });
  const pod = (resourceVersion: string, status: Record<string, unknown>, labels: Record<string, string> = identity.labels) =>
    keepPodIP({ metadata: { ...identity, resourceVersion, labels }, status });

  it('sees no change when only the resourceVersion and fields the cache drops moved', () => {
    const unschedulable = { conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable' }] };
    const retried = { conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable', lastProbeTime: '2026-11-30T10:00:05Z' }] };
    expect(keptFieldsChanged(pod('7', unschedulable), pod('8', retried))).toBe(false);
  });

  it('sees a change of a kept field, of identity metadata, or of a nested value', () => {
    expect(keptFieldsChanged(pod('7', {}), pod('8', { podIP: '10.0.0.5' }))).toBe(true);
    expect(keptFieldsChanged(pod('7', {}), pod('8', {}, { ...identity.labels, tier: 'a' }))).toBe(true);
    const owned = (controller: boolean) => ({ metadata: { name: 'zk', resourceVersion: '1', ownerReferences: [{ name: 'zk', controller }] } });
    expect(keptFieldsChanged(owned(true), owned(false))).toBe(true);
  });
});

describe('keptFieldsChangedIn', () => {
  const shared = keepFields({ annotations: true, paths: [['status', 'podIP'], ['status', 'conditions']] });
  const podIPChanged = keptFieldsChangedIn({ paths: [['status', 'podIP']] });
  const pod = (resourceVersion: string, status: Record<string, unknown>, annotations: Record<string, string> = {}) =>
    shared({ metadata: { ...identity, resourceVersion, annotations }, status });

  it('sees a change of the part it names in an object cached with more', () => {
    expect(podIPChanged(pod('7', {}), pod('8', { podIP: '10.0.0.5' }))).toBe(true);
    const relabelled = shared({ metadata: { ...identity, resourceVersion: '8', labels: { app: 'zk', tier: 'a' } } });
    expect(podIPChanged(pod('7', {}), relabelled)).toBe(true);
  });

  it('sees none when only what the shared cache keeps besides it moved', () => {
    const ready = { podIP: '10.0.0.5', conditions: [{ type: 'Ready', status: 'True' }] };
    const notReady = { podIP: '10.0.0.5', conditions: [{ type: 'Ready', status: 'False' }] };
    expect(keptFieldsChanged(pod('7', ready), pod('8', notReady))).toBe(true);
    expect(podIPChanged(pod('7', ready), pod('8', notReady))).toBe(false);
    expect(podIPChanged(pod('7', ready), pod('8', ready, { revision: '2' }))).toBe(false);
  });
});
