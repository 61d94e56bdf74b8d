// The workload's member pods and volumes as read from the caches: by ordinal, other objects with the labels left out.
import type { KubeObject } from '@zk-oam/runtime';
import { describe, expect, it } from 'vitest';
import { CACHED_FIELDS, memberPods, memberVolumes, statefulSetView } from './views.js';

function object(name: string, extra: Record<string, unknown> = {}): KubeObject {
  return { metadata: { name, namespace: 'ns' }, ...extra };
}

describe('cached views', () => {
  it('reads member pods by ordinal with readiness, deletion and IP, leaving out pods of other names', () => {
    const pods = [
      object('zk-0', { status: { podIP: '10.0.0.1', conditions: [{ type: 'Ready', status: 'True' }] } }),
      { ...object('zk-1', { status: { podIP: '' } }), metadata: { name: 'zk-1', deletionTimestamp: '2026-01-01T00:00:00Z' } },
      object('zk-extra'),
      object('zk-01'),
      object('zkx-2'),
    ];
    expect(memberPods(pods, 'zk')).toEqual([
      { name: 'zk-0', ordinal: 0, ready: true, deleting: false, podIP: '10.0.0.1' },
      { name: 'zk-1', ordinal: 1, ready: false, deleting: true, podIP: undefined },
    ]);
  });

  it('reads data volumes data-<statefulset>-<ordinal> only', () => {
    expect(memberVolumes([object('data-zk-3'), object('data-zk-other-1'), object('logs-zk-0')], 'zk')).toEqual([
      { name: 'data-zk-3', ordinal: 3, deleting: false },
    ]);
  });

  it('formats the StatefulSet selector as the scale subresource\'s label selector, sorted', () => {
    const statefulSet = object('zk', { spec: { replicas: 3, selector: { matchLabels: { 'b/x': '2', 'a/y': '1' } } } });
    expect(statefulSetView(statefulSet)).toEqual({ name: 'zk', replicas: 3, selector: 'a/y=1,b/x=2' });
  });

  it('reads the same views from what the informers keep, without pod specs or StatefulSet templates', () => {
    const pod = object('zk-0', {
      spec: { containers: [{ name: 'zookeeper', image: 'zookeeper:3.8' }], volumes: [{ name: 'data' }] },
      status: { podIP: '10.0.0.1', phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }], containerStatuses: [{ restartCount: 0 }] },
    });
    const keptPod = CACHED_FIELDS.pod(pod) as KubeObject;
    expect(memberPods([keptPod], 'zk')).toEqual(memberPods([pod], 'zk'));
    expect(keptPod).not.toHaveProperty('spec');
    const statefulSet = object('zk', { spec: { replicas: 3, selector: { matchLabels: { a: '1' } }, template: { spec: { containers: [] } } } });
    const keptStatefulSet = CACHED_FIELDS.statefulSet(statefulSet) as KubeObject;
    expect(statefulSetView(keptStatefulSet)).toEqual(statefulSetView(statefulSet));
    expect(keptStatefulSet).not.toHaveProperty(['spec', 'template']);
    const volume = object('data-zk-0', { spec: { resources: { requests: { storage: '1Gi' } } }, status: { phase: 'Bound' } });
    expect(memberVolumes([CACHED_FIELDS.persistentVolumeClaim(volume) as KubeObject], 'zk')).toEqual(memberVolumes([volume], 'zk'));
  });
});
