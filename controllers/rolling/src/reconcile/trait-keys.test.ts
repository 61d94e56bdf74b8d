// Child -> trait mapping, from what the informers keep of a pod and a StatefulSet.
import { podName, statefulSetNameOf, workloadLabels } from '@zk-oam/apis';
import type { KubeObject, Lister } from '@zk-oam/runtime';
import { describe, expect, it } from 'vitest';
import { CACHED_CHILD_FIELDS, traitsOfChild } from './trait-keys.js';

const trait: KubeObject = { metadata: { name: 'roll', namespace: 'ns' }, spec: { workloadRef: { name: 'zk' } } } as KubeObject;
const rollings: Lister<KubeObject> = {
  get: () => undefined,
  list: (options) => (options?.namespace === 'ns' ? [trait] : []),
};

describe('traitsOfChild on cached children', () => {
  it('maps a pod by its instance label and a StatefulSet by its name, from identity metadata alone', () => {
    const pod = {
      metadata: { name: podName(statefulSetNameOf('zk'), 1), namespace: 'ns', labels: workloadLabels('zk') },
      spec: { containers: [{ name: 'zookeeper' }] },
      status: { podIP: '10.0.0.2' },
    };
    const statefulSet = { metadata: { name: statefulSetNameOf('zk'), namespace: 'ns' }, spec: { replicas: 3, template: {} } };
    const keptPod = CACHED_CHILD_FIELDS(pod) as KubeObject;
    const keptStatefulSet = CACHED_CHILD_FIELDS(statefulSet) as KubeObject;
    expect(keptPod).toEqual({ metadata: pod.metadata });
    expect(traitsOfChild(rollings, keptPod, 'pod')).toEqual([{ namespace: 'ns', name: 'roll' }]);
    expect(traitsOfChild(rollings, keptStatefulSet, 'statefulSet')).toEqual([{ namespace: 'ns', name: 'roll' }]);
  });
});
