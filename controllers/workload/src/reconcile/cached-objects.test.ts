import { describe, expect, it } from 'vitest';
import { podEssentials, podView } from './cached-objects.js';

const pod = {
  metadata: {
    name: 'zk-0',
    namespace: 'ns',
    uid: 'u-1',
    resourceVersion: '42',
    labels: { 'app.kubernetes.io/instance': 'zk' },
    annotations: { big: 'x'.repeat(500) },
    ownerReferences: [{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'zk', uid: 's-1' }],
  },
  spec: { containers: [{ name: 'zookeeper', image: 'zookeeper:3.8', env: [{ name: 'A', value: 'b' }] }], nodeName: 'n1' },
  status: { podIP: '10.0.0.7', phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
};

describe('podEssentials', () => {
  it('keeps what the reconcile reads of a pod, so its view is unchanged, and drops the rest', () => {
    const kept = podEssentials(pod);
    expect(kept).toEqual({
      metadata: { name: 'zk-0', namespace: 'ns', uid: 'u-1', resourceVersion: '42', labels: pod.metadata.labels, ownerReferences: pod.metadata.ownerReferences },
      status: { podIP: '10.0.0.7' },
    });
    expect(podView({ metadata: { name: 'zk-0' }, ...kept })).toEqual(podView(pod));
    expect(JSON.stringify(kept).length).toBeLessThan(JSON.stringify(pod).length / 2);
  });

  it('keeps a pod without an IP yet, and its deletion mark', () => {
    const pending = { metadata: { name: 'zk-1', deletionTimestamp: '2026-01-01T00:00:00Z' }, spec: {}, status: { phase: 'Pending' } };
    expect(podEssentials(pending)).toEqual({ metadata: { name: 'zk-1', deletionTimestamp: '2026-01-01T00:00:00Z' } });
  });
});
