// Pod placement: anti-affinity between members per spec, merged with the user's own affinity; spread and node rules.
import type {
  V1Affinity,
  V1PodAffinityTerm,
  V1PodSpec,
  V1TopologySpreadConstraint,
  V1WeightedPodAffinityTerm,
} from '@kubernetes/client-node';
import type { ZookeeperWorkload } from '@zk-oam/apis';
import { selectorLabels } from './identity.js';

const HOSTNAME_TOPOLOGY_KEY = 'kubernetes.io/hostname';

/**
 * spec.placement.affinity is free-form (the CRD preserves unknown fields). Only its shape is checked here: objects
 * where objects go, lists where lists go; the apiserver validates the rest when the StatefulSet is applied.
 */
function isObject(value: unknown): value is Record<string, never> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function objectList<T>(value: unknown, isItem: (item: unknown) => item is T): T[] {
  return Array.isArray(value) ? value.filter(isItem) : [];
}

const isAffinityTerm = (item: unknown): item is V1PodAffinityTerm => isObject(item);
const isWeightedTerm = (item: unknown): item is V1WeightedPodAffinityTerm => isObject(item);

export class AffinityShapeError extends Error {
  override readonly name = 'AffinityShapeError';
  constructor(readonly field: string) {
    super(`spec.placement.affinity.${field} must be an object`);
  }
}

function userAffinity(raw: Record<string, unknown> | undefined): V1Affinity {
  const affinity: V1Affinity = {};
  for (const field of ['nodeAffinity', 'podAffinity', 'podAntiAffinity'] as const) {
    const value = raw?.[field];
    if (value !== undefined && !isObject(value)) {
      throw new AffinityShapeError(field);
    }
    if (value !== undefined) {
      affinity[field] = value;
    }
  }
  return affinity;
}

export function buildAffinity(workload: ZookeeperWorkload): V1Affinity | undefined {
  const { antiAffinity, affinity: raw } = workload.spec.placement;
  const affinity = userAffinity(raw);
  const own: V1PodAffinityTerm = { topologyKey: HOSTNAME_TOPOLOGY_KEY, labelSelector: { matchLabels: selectorLabels(workload) } };
  const required = objectList(affinity.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution, isAffinityTerm);
  const preferred = objectList(affinity.podAntiAffinity?.preferredDuringSchedulingIgnoredDuringExecution, isWeightedTerm);
  if (antiAffinity === 'required') {
    required.unshift(own);
  } else if (antiAffinity === 'preferred') {
    preferred.unshift({ weight: 100, podAffinityTerm: own });
  }
  const podAntiAffinity = {
    ...(required.length > 0 ? { requiredDuringSchedulingIgnoredDuringExecution: required } : {}),
    ...(preferred.length > 0 ? { preferredDuringSchedulingIgnoredDuringExecution: preferred } : {}),
  };
  const merged: V1Affinity = { ...affinity };
  delete merged.podAntiAffinity;
  if (Object.keys(podAntiAffinity).length > 0) {
    merged.podAntiAffinity = podAntiAffinity;
  }
  return Object.keys(merged).length > 0 ? merged : undefined;
}

function topologySpread(workload: ZookeeperWorkload): V1TopologySpreadConstraint[] | undefined {
  return workload.spec.placement.topologySpreadConstraints?.map((constraint) => ({
    ...constraint,
    labelSelector: { matchLabels: selectorLabels(workload) },
  }));
}

/** The placement fields of the pod spec; absent fields are left out rather than set to undefined. */
export function buildPlacement(
  workload: ZookeeperWorkload,
): Pick<V1PodSpec, 'affinity' | 'topologySpreadConstraints' | 'nodeSelector' | 'tolerations' | 'priorityClassName'> {
  const { nodeSelector, tolerations, priorityClassName } = workload.spec.placement;
  const affinity = buildAffinity(workload);
  const topologySpreadConstraints = topologySpread(workload);
  return {
    ...(affinity === undefined ? {} : { affinity }),
    ...(topologySpreadConstraints === undefined ? {} : { topologySpreadConstraints }),
    ...(nodeSelector === undefined ? {} : { nodeSelector }),
    ...(tolerations === undefined ? {} : { tolerations }),
    ...(priorityClassName === undefined ? {} : { priorityClassName }),
  };
}
