// Narrow views of the workload's StatefulSet, member pods and data volumes, parsed once from the informer caches
// (pure: no client here).
import { MEMBER_POD_FIELDS, ordinalOfPod, ordinalOfVolume, STATEFUL_SET_FIELDS } from '@zk-oam/apis';
import { keepFields, parseShape, type KubeObject } from '@zk-oam/runtime';
import { z } from 'zod';
import type { ObservedPod, ObservedVolume } from '../plan/index.js';

const labelsSchema = z.record(z.string(), z.string()).optional();

const statefulSetSchema = z.looseObject({
  metadata: z.looseObject({ name: z.string() }),
  spec: z.looseObject({ replicas: z.int().optional(), selector: z.looseObject({ matchLabels: labelsSchema }) }),
});

const podSchema = z.looseObject({
  metadata: z.looseObject({ name: z.string(), deletionTimestamp: z.string().optional() }),
  status: z
    .looseObject({
      podIP: z.string().optional(),
      conditions: z.array(z.looseObject({ type: z.string(), status: z.string() })).optional(),
    })
    .optional(),
});

/**
 * What the informers keep of each kind: what the views below read, within the sets every controller keeps of pods and
 * StatefulSets (one parse between them in the manager); pod specs and templates are never read here.
 */
export const CACHED_FIELDS = {
  statefulSet: keepFields(STATEFUL_SET_FIELDS),
  pod: keepFields(MEMBER_POD_FIELDS),
  persistentVolumeClaim: keepFields({}),
} as const;

export interface StatefulSetView {
  name: string;
  replicas: number;
  /** `k=v,...` of its selector: the trait's status.selector (the scale subresource's label selector). */
  selector: string;
}

export function statefulSetView(object: KubeObject): StatefulSetView {
  const { metadata, spec } = parseShape(statefulSetSchema, object, 'StatefulSet', object.metadata.name);
  const labels = Object.entries(spec.selector.matchLabels ?? {}).sort(([a], [b]) => a.localeCompare(b));
  return { name: metadata.name, replicas: spec.replicas ?? 1, selector: labels.map(([key, value]) => `${key}=${value}`).join(',') };
}

/** Pods of the StatefulSet by ordinal; other pods sharing the labels are left out. */
export function memberPods(objects: readonly KubeObject[], statefulSet: string): ObservedPod[] {
  return objects.flatMap((object) => {
    const ordinal = ordinalOfPod(object.metadata.name, statefulSet);
    if (ordinal === undefined) return [];
    const { metadata, status } = parseShape(podSchema, object, 'Pod', object.metadata.name);
    const ready = status?.conditions?.some((condition) => condition.type === 'Ready' && condition.status === 'True') ?? false;
    const podIP = status?.podIP === undefined || status.podIP === '' ? undefined : status.podIP;
    return [{ name: metadata.name, ordinal, ready, deleting: metadata.deletionTimestamp !== undefined, podIP }];
  });
}

export function memberVolumes(objects: readonly KubeObject[], statefulSet: string): ObservedVolume[] {
  return objects.flatMap((object) => {
    const ordinal = ordinalOfVolume(object.metadata.name, statefulSet);
    return ordinal === undefined ? [] : [{ name: object.metadata.name, ordinal, deleting: object.metadata.deletionTimestamp !== undefined }];
  });
}
