// What the workload controller's informers keep of its children, built as the renderer and the StatefulSet controller
// name and label them.
import { DATA_VOLUME, derivedNames, memberSelectorLabels, podName, workloadLabels, ZOOKEEPER_WORKLOAD } from '@zk-oam/apis';
import { describe, expect, it } from 'vitest';
import { keepFields } from '@zk-oam/runtime';
import { CERTIFICATE_ANNOTATION } from '../tls/member-config.js';
import { CACHED_CHILD_FIELDS, CachedObjectShapeError, podView, READ_POD_FIELDS, statefulSetView } from './views.js';
import { APPLIED_HASH_ANNOTATION, INITIAL_MEMBERS_ANNOTATION } from './resources.js';

const NAMES = derivedNames('zk');

const pod = {
  metadata: {
    name: podName(NAMES.statefulSet, 0),
    namespace: 'ns',
    uid: 'u-1',
    resourceVersion: '42',
    labels: workloadLabels('zk'),
    annotations: { big: 'x'.repeat(500) },
    ownerReferences: [{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: NAMES.statefulSet, uid: 's-1' }],
  },
  spec: { containers: [{ name: 'zookeeper', image: 'zookeeper:3.8', env: [{ name: 'A', value: 'b' }] }], nodeName: 'n1' },
  status: { podIP: '10.0.0.7', phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
};

const statefulSet = {
  metadata: {
    name: NAMES.statefulSet,
    namespace: 'ns',
    uid: 's-1',
    resourceVersion: '9',
    generation: 7,
    annotations: { [APPLIED_HASH_ANNOTATION]: 'h1', [INITIAL_MEMBERS_ANNOTATION]: '3' },
    ownerReferences: [{ apiVersion: ZOOKEEPER_WORKLOAD.apiVersion, kind: ZOOKEEPER_WORKLOAD.kind, name: 'zk', uid: 'w-1', controller: true }],
  },
  spec: {
    replicas: 3,
    selector: { matchLabels: memberSelectorLabels('zk') },
    template: {
      metadata: { labels: workloadLabels('zk'), annotations: { [CERTIFICATE_ANNOTATION]: 'AB:CD' } },
      spec: { containers: [{ name: 'zookeeper', image: 'zookeeper:3.8', env: Array.from({ length: 20 }, (_, i) => ({ name: `E${String(i)}`, value: 'v' })) }] },
    },
    volumeClaimTemplates: [{ metadata: { name: DATA_VOLUME }, spec: { resources: { requests: { storage: '1Gi' } } } }],
  },
  status: { replicas: 3, readyReplicas: 2, updatedReplicas: 1, observedGeneration: 7, currentRevision: 'zk-1', updateRevision: 'zk-2', conditions: [] },
};

describe('CACHED_CHILD_FIELDS', () => {
  it('keeps what every controller reads of a pod, so its view is unchanged, and drops the rest', () => {
    const kept = CACHED_CHILD_FIELDS.pod(pod);
    expect(kept).toEqual({
      metadata: { name: pod.metadata.name, namespace: 'ns', uid: 'u-1', resourceVersion: '42', labels: pod.metadata.labels, annotations: pod.metadata.annotations, ownerReferences: pod.metadata.ownerReferences },
      status: { podIP: '10.0.0.7', conditions: pod.status.conditions },
    });
    expect(podView({ metadata: { name: pod.metadata.name }, ...kept })).toEqual(podView(pod));
  });

  it('reads of a pod no more than READ_POD_FIELDS, the part whose updates reconcile', () => {
    const read = keepFields(READ_POD_FIELDS)(pod);
    expect(podView({ metadata: { name: pod.metadata.name }, ...read })).toEqual(podView(pod));
  });

  it('keeps a pod without an IP yet, and its deletion mark', () => {
    const pending = { metadata: { name: podName(NAMES.statefulSet, 1), deletionTimestamp: '2026-01-01T00:00:00Z' }, spec: {}, status: { phase: 'Pending' } };
    expect(CACHED_CHILD_FIELDS.pod(pending)).toEqual({ metadata: { name: pending.metadata.name, deletionTimestamp: '2026-01-01T00:00:00Z' } });
  });

  it('keeps what the reconcile reads of a StatefulSet (its view, applied hash, owner) without the pod template but its annotations', () => {
    const kept = CACHED_CHILD_FIELDS.statefulSet(statefulSet);
    expect(statefulSetView({ metadata: { name: NAMES.statefulSet }, ...kept })).toEqual(statefulSetView(statefulSet));
    // The counts that say a rollout is done (a move to TLS waits for them) survive the cache.
    expect(statefulSetView({ metadata: { name: NAMES.statefulSet }, ...kept }).metadata?.generation).toBe(7);
    expect(statefulSetView({ metadata: { name: NAMES.statefulSet }, ...kept }).status).toEqual({
      replicas: 3,
      readyReplicas: 2,
      updatedReplicas: 1,
      observedGeneration: 7,
      currentRevision: 'zk-1',
      updateRevision: 'zk-2',
    });
    expect(kept).toMatchObject({ metadata: { annotations: statefulSet.metadata.annotations, ownerReferences: statefulSet.metadata.ownerReferences }, spec: { replicas: 3 } });
    // The template's annotations say which member Secret content the members run (a CA rotation waits for it).
    expect(kept).toMatchObject({ spec: { template: { metadata: { annotations: { [CERTIFICATE_ANNOTATION]: 'AB:CD' } } } } });
    expect(kept).not.toHaveProperty(['spec', 'template', 'spec']);
    expect(kept).not.toHaveProperty(['spec', 'template', 'metadata', 'labels']);
    expect(JSON.stringify(kept).length).toBeLessThan(JSON.stringify(statefulSet).length / 2);
  });

  it("keeps a ConfigMap's zoo.cfg without its scripts, a Secret's data, and only metadata of Services and PDBs", () => {
    const metadata = { name: NAMES.configMap, annotations: { [APPLIED_HASH_ANNOTATION]: 'h2' } };
    const configMap = { metadata, data: { 'zoo.cfg': 'tickTime=2000', 'start.sh': '#!/bin/bash\n'.repeat(200) } };
    expect(CACHED_CHILD_FIELDS.configMap(configMap)).toEqual({ metadata, data: { 'zoo.cfg': 'tickTime=2000' } });
    expect(CACHED_CHILD_FIELDS.secret({ metadata: { name: 's' }, type: 'Opaque', data: { password: 'cA==' } })).toEqual({ metadata: { name: 's' }, data: { password: 'cA==' } });
    const service = { metadata: { name: NAMES.clientService, annotations: { [APPLIED_HASH_ANNOTATION]: 'h3' } }, spec: { ports: [{ port: 2181 }], clusterIP: '10.0.0.1' } };
    expect(CACHED_CHILD_FIELDS.service(service)).toEqual({ metadata: service.metadata });
  });
});

describe('statefulSetView and podView', () => {
  it('parse each cached version once, and a new version anew', () => {
    const cachedSet = CACHED_CHILD_FIELDS.statefulSet(statefulSet);
    const view = statefulSetView({ metadata: { name: NAMES.statefulSet }, ...cachedSet });
    const object = { metadata: { name: NAMES.statefulSet }, ...cachedSet };
    expect(statefulSetView(object)).toBe(statefulSetView(object));
    expect(statefulSetView(object)).toEqual(view);
    const scaled = { ...object, spec: { ...cachedSet['spec'] as object, replicas: 5 } };
    expect(statefulSetView(scaled).spec?.replicas).toBe(5);
    const cachedPod = { metadata: { name: pod.metadata.name }, ...CACHED_CHILD_FIELDS.pod(pod) };
    expect(podView(cachedPod)).toBe(podView(cachedPod));
    expect(podView({ ...cachedPod, status: { podIP: '10.0.0.8' } }).status?.podIP).toBe('10.0.0.8');
  });

  it('refuse an object lacking a field the reconcile reads, at every read', () => {
    const broken = { metadata: { name: NAMES.statefulSet }, spec: { replicas: 'three', selector: {} } };
    expect(() => statefulSetView(broken)).toThrow(`cached StatefulSet ${NAMES.statefulSet} lacks a field the reconcile reads`);
    expect(() => statefulSetView(broken)).toThrow(CachedObjectShapeError);
    expect(() => podView({ metadata: { name: 'p' }, status: { podIP: 7 } })).toThrow('cached Pod p lacks a field the reconcile reads');
  });
});
