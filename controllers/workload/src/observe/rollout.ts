// How far the member pods are on the StatefulSet's update revision (pod label controller-revision-hash).
import type { V1Pod, V1StatefulSet } from '@kubernetes/client-node';

const REVISION_LABEL = 'controller-revision-hash';

export interface Rollout {
  currentRevision: string | undefined;
  updateRevision: string | undefined;
  pods: number;
  updatedPods: number;
}

export function rolloutOf(statefulSet: V1StatefulSet | undefined, pods: readonly V1Pod[]): Rollout {
  const updateRevision = statefulSet?.status?.updateRevision;
  return {
    currentRevision: statefulSet?.status?.currentRevision,
    updateRevision,
    pods: pods.length,
    updatedPods:
      updateRevision === undefined ? 0 : pods.filter((pod) => pod.metadata?.labels?.[REVISION_LABEL] === updateRevision).length,
  };
}

/** Pods still on an older revision. */
export function isRollingOut(rollout: Rollout): boolean {
  return rollout.updateRevision !== undefined && rollout.updatedPods < rollout.pods;
}
