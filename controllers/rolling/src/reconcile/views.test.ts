// Reading the StatefulSet, its pods and ZooKeeper's answers into what the planner takes: what counts and what does not.
import { podName, podOfMember, statefulSetNameOf, workloadLabels, workloadOfLabels, workloadOfStatefulSet, ZOOKEEPER_WORKLOAD } from '@zk-oam/apis';
import { childToTraits, type KubeObject, type Lister } from '@zk-oam/runtime';
import { answeringMember } from '@zk-oam/zookeeper/testing';
import { describe, expect, it } from 'vitest';
import { assess } from './observe.js';
import { CACHED_FIELDS, observedPod, statefulSetView, zooTimingOf } from './views.js';

const statefulSet = (generation: number, observedGeneration: number, type = 'OnDelete'): unknown => ({
  metadata: { name: 'zk', generation },
  spec: { replicas: 5, updateStrategy: { type } },
  status: { observedGeneration, updateRevision: 'zk-new' },
});

describe('the StatefulSet as the planner sees it', () => {
  it('takes the update revision once the StatefulSet controller has observed the spec', () => {
    expect(statefulSetView(statefulSet(4, 4), 'zk')).toEqual({ name: 'zk', updateRevision: 'zk-new', replicas: 5, onDelete: true });
  });

  it('has no update revision while a newer template is not observed yet (pods at the old one would look updated)', () => {
    expect(statefulSetView(statefulSet(5, 4), 'zk').updateRevision).toBeUndefined();
  });

  it('says whether it is OnDelete', () => {
    expect(statefulSetView(statefulSet(4, 4, 'RollingUpdate'), 'zk').onDelete).toBe(false);
  });
});

describe('a member pod as the planner sees it', () => {
  const pod = {
    metadata: {
      name: 'zk-3',
      uid: 'u-3',
      creationTimestamp: '2026-01-01T00:00:00Z',
      labels: { 'controller-revision-hash': 'zk-old' },
    },
    status: {
      podIP: '10.0.0.4',
      conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2026-01-01T00:00:09Z' }],
      containerStatuses: [{ restartCount: 2 }],
    },
  };

  it('carries ordinal, uid, revision, readiness and restarts, and its IP', () => {
    expect(observedPod(pod, 'zk')).toEqual({
      ip: '10.0.0.4',
      view: {
        name: 'zk-3',
        uid: 'u-3',
        ordinal: 3,
        revision: 'zk-old',
        createdAt: new Date('2026-01-01T00:00:00Z'),
        ready: true,
        readyChangedAt: new Date('2026-01-01T00:00:09Z'),
        deletion: undefined,
        restartCount: 2,
      },
    });
  });

  it('is Terminating once it has a deletion timestamp', () => {
    const terminating = { ...pod, metadata: { ...pod.metadata, deletionTimestamp: '2026-01-01T00:01:00Z', deletionGracePeriodSeconds: 30 } };
    expect(observedPod(terminating, 'zk')?.view.deletion).toEqual({ at: new Date('2026-01-01T00:01:00Z'), gracePeriodSeconds: 30 });
  });

  it.each(['zk-03', 'zk-x', 'other-1'])('leaves %s out: not a member of StatefulSet zk', (name) => {
    expect(observedPod({ ...pod, metadata: { ...pod.metadata, name } }, 'zk')).toBeUndefined();
  });
});

describe("the workload's zoo.cfg timing as the planner sees it", () => {
  const workload = (spec: object): KubeObject => ({ apiVersion: ZOOKEEPER_WORKLOAD.apiVersion, kind: 'ZookeeperWorkload', metadata: { name: 'zk' }, spec });

  it.each([
    ['set in the spec', { config: { tickTime: 3000, initLimit: 20, syncLimit: 10 } }, { tickTime: 3000, initLimit: 20 }],
    ['partly set', { config: { initLimit: 5 } }, { tickTime: 2000, initLimit: 5 }],
    ['absent', { replicas: 3 }, { tickTime: 2000, initLimit: 10 }],
    ['unreadable', { config: { tickTime: 'soon' } }, { tickTime: 2000, initLimit: 10 }],
  ])('takes tickTime and initLimit %s', (_name, spec, expected) => {
    expect(zooTimingOf(workload(spec))).toEqual(expected);
  });
});

describe('the ensemble without its committed configuration', () => {
  it('is unhealthy, saying why, even when every member answers', () => {
    const members = [1, 2, 3].map((id) => ({ pod: podOfMember('zk', id), myid: id, ip: `10.0.0.${id}`, observation: answeringMember(id, `10.0.0.${id}`, { mode: id === 1 ? 'leader' : 'follower', phase: 'broadcast', synced: { followers: 2 } }) }));
    const assessment = assess({ members, committed: { ok: false, error: new Error('connection loss') } });
    expect(assessment.health).toEqual({ ok: false, reason: 'the committed configuration could not be read: connection loss' });
  });
});

describe('what the informers keep of a pod and a StatefulSet', () => {
  const trait: KubeObject = { metadata: { name: 'roll', namespace: 'ns' }, spec: { workloadRef: { name: 'zk' } } } as KubeObject;
  const rollings: Lister<KubeObject> = {
    get: () => undefined,
    list: (options) => (options?.namespace === 'ns' ? [trait] : []),
  };

  it('maps a pod by its instance label and a StatefulSet by its name, from identity metadata alone', () => {
    const pod = {
      metadata: { name: podName(statefulSetNameOf('zk'), 1), namespace: 'ns', labels: workloadLabels('zk') },
      spec: { containers: [{ name: 'zookeeper' }] },
      status: { podIP: '10.0.0.2' },
    };
    const statefulSet = { metadata: { name: statefulSetNameOf('zk'), namespace: 'ns' }, spec: { replicas: 3, template: {} } };
    const keptPod = CACHED_FIELDS.pod(pod) as KubeObject;
    const keptStatefulSet = CACHED_FIELDS.statefulSet(statefulSet) as KubeObject;
    expect(keptPod).not.toHaveProperty('spec');
    expect(childToTraits(rollings, (child) => workloadOfLabels(child.metadata.labels))(keptPod)).toEqual([{ namespace: 'ns', name: 'roll' }]);
    expect(childToTraits(rollings, (child) => workloadOfStatefulSet(child.metadata.name))(keptStatefulSet)).toEqual([{ namespace: 'ns', name: 'roll' }]);
  });
});
