// PodDisruptionBudget `<name>`: voluntary evictions take at most one member at a time.
import type { V1PodDisruptionBudget } from '@kubernetes/client-node';
import type { ZookeeperWorkload } from '@zk-oam/apis';
import { childMetadata, selectorLabels, workloadNames } from './identity.js';

export function buildPodDisruptionBudget(workload: ZookeeperWorkload): V1PodDisruptionBudget {
  return {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: childMetadata(workload, workloadNames(workload).podDisruptionBudget),
    spec: {
      maxUnavailable: 1,
      selector: { matchLabels: selectorLabels(workload) },
    },
  };
}
