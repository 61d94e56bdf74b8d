// Builders for observer tests: a workload, its pods and StatefulSet, and member observations as srvr/mntr would give them.
import type { V1Pod, V1StatefulSet } from '@kubernetes/client-node';
import {
  derivedNames,
  memberSelectorLabels,
  myidOfOrdinal,
  podName,
  ZOOKEEPER_WORKLOAD,
  type ZookeeperWorkload,
  zookeeperWorkloadSchema,
  type ZookeeperWorkloadStatus,
} from '@zk-oam/apis';
import type { CommittedConfig, EnsembleObservation, ObservedPod } from '@zk-oam/zookeeper';
import { ipOf } from '@zk-oam/zookeeper/testing';

export { committed, follower, leader, notServing, observer, server, THREE_VOTERS } from '@zk-oam/zookeeper/testing';

/** The workload every builder describes; the names and labels of what is rendered for it come from the contract. */
const WORKLOAD = 'zk';
const NAMESPACE = 'prod';
const NAMES = derivedNames(WORKLOAD);

export const NOW = new Date('2026-11-22T05:00:00.000Z');
export const EARLIER = '2026-11-22T04:00:00Z';

export function workload(status?: ZookeeperWorkloadStatus): ZookeeperWorkload {
  return zookeeperWorkloadSchema.parse({
    apiVersion: ZOOKEEPER_WORKLOAD.apiVersion,
    kind: ZOOKEEPER_WORKLOAD.kind,
    metadata: { name: WORKLOAD, namespace: NAMESPACE, uid: 'uid-1', generation: 4 },
    spec: { replicas: 3 },
    status,
  });
}

export function pod(ordinal: number, revision = 'zk-rev1'): V1Pod {
  return {
    metadata: { name: podName(NAMES.statefulSet, ordinal), namespace: NAMESPACE, labels: { ...memberSelectorLabels(WORKLOAD), 'controller-revision-hash': revision } },
    status: { podIP: ipOf(myidOfOrdinal(ordinal)) },
  };
}

export function statefulSet(replicas: number, revisions: { current: string; update: string } = { current: 'zk-rev1', update: 'zk-rev1' }): V1StatefulSet {
  return {
    metadata: { name: NAMES.statefulSet, namespace: NAMESPACE },
    spec: {
      replicas,
      serviceName: NAMES.headlessService,
      selector: { matchLabels: memberSelectorLabels(WORKLOAD) },
      template: {},
    },
    status: { replicas, currentRevision: revisions.current, updateRevision: revisions.update },
  };
}

export function ensemble(members: ObservedPod[], config: CommittedConfig | Error): EnsembleObservation {
  return {
    members,
    committed: config instanceof Error ? { ok: false, error: config } : { ok: true, config, readFrom: podName(NAMES.statefulSet, 0) },
  };
}
