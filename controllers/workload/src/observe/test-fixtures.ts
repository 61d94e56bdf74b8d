// Builders for observer tests: a workload, its pods and StatefulSet, and member observations as srvr/mntr would give them.
import type { V1Pod, V1StatefulSet } from '@kubernetes/client-node';
import { myidOfOrdinal, type ZookeeperWorkload, zookeeperWorkloadSchema, type ZookeeperWorkloadStatus } from '@zk-oam/apis';
import type { CommittedConfig, EnsembleObservation, ObservedPod } from '@zk-oam/zookeeper';
import { ipOf } from '@zk-oam/zookeeper/testing';

export { committed, follower, leader, notServing, observer, server, THREE_VOTERS } from '@zk-oam/zookeeper/testing';

export const NOW = new Date('2026-11-22T05:00:00.000Z');
export const EARLIER = '2026-11-22T04:00:00Z';

export function workload(status?: ZookeeperWorkloadStatus): ZookeeperWorkload {
  return zookeeperWorkloadSchema.parse({
    apiVersion: 'workload.zookeeper.zkoam.dev/v1alpha1',
    kind: 'ZookeeperWorkload',
    metadata: { name: 'zk', namespace: 'prod', uid: 'uid-1', generation: 4 },
    spec: { replicas: 3 },
    status,
  });
}

export function pod(ordinal: number, revision = 'zk-rev1'): V1Pod {
  return {
    metadata: { name: `zk-${ordinal}`, namespace: 'prod', labels: { 'controller-revision-hash': revision } },
    status: { podIP: ipOf(myidOfOrdinal(ordinal)) },
  };
}

export function statefulSet(replicas: number, revisions: { current: string; update: string } = { current: 'zk-rev1', update: 'zk-rev1' }): V1StatefulSet {
  return {
    metadata: { name: 'zk', namespace: 'prod' },
    spec: {
      replicas,
      serviceName: 'zk-headless',
      selector: { matchLabels: { 'app.kubernetes.io/name': 'zookeeper', 'app.kubernetes.io/instance': 'zk' } },
      template: {},
    },
    status: { replicas, currentRevision: revisions.current, updateRevision: revisions.update },
  };
}

export function ensemble(members: ObservedPod[], config: CommittedConfig | Error): EnsembleObservation {
  return {
    members,
    committed: config instanceof Error ? { ok: false, error: config } : { ok: true, config, readFrom: 'zk-0' },
  };
}
