// Narrow views of the StatefulSet, its pods and the workload's zoo.cfg timing as read from the API, parsed once into
// what the planner reads (pure: no client here).
import { MEMBER_POD_FIELDS, ordinalOfPod, STATEFUL_SET_FIELDS, zooConfigSchema } from '@zk-oam/apis';
import { keepFields, parseShape, type KubeObject } from '@zk-oam/runtime';
import type { PodView, RollingPlanInput, StatefulSetView } from '../plan/index.js';
import { z } from 'zod';

/**
 * What the StatefulSet and pod informers keep: identity and labels are all that maps them to a trait, so they watch
 * metadata only. Their events only wake the traits; the reconcile reads both kinds fresh from the API (observe.ts): a
 * plan must never see a deletion late. They keep what every controller keeps of these kinds: alone, of metadata that
 * is the annotations besides; in the manager, where another controller's informer of the same watch reads whole
 * objects, one parse serves them all.
 */
export const CACHED_FIELDS = {
  statefulSet: keepFields(STATEFUL_SET_FIELDS),
  pod: keepFields(MEMBER_POD_FIELDS),
} as const;

/** The pod template revision label the StatefulSet controller sets. */
export const REVISION_LABEL = 'controller-revision-hash';

const statefulSetSchema = z.looseObject({
  metadata: z.looseObject({ name: z.string(), generation: z.int().optional() }),
  spec: z.looseObject({
    replicas: z.int().optional(),
    updateStrategy: z.looseObject({ type: z.string().optional() }).optional(),
  }),
  status: z.looseObject({ observedGeneration: z.int().optional(), updateRevision: z.string().optional() }).optional(),
});

const podSchema = z.looseObject({
  metadata: z.looseObject({
    name: z.string(),
    uid: z.string(),
    creationTimestamp: z.string(),
    deletionTimestamp: z.string().optional(),
    deletionGracePeriodSeconds: z.int().optional(),
    labels: z.record(z.string(), z.string()).optional(),
  }),
  status: z
    .looseObject({
      podIP: z.string().optional(),
      conditions: z.array(z.looseObject({ type: z.string(), status: z.string(), lastTransitionTime: z.string().optional() })).optional(),
      containerStatuses: z.array(z.looseObject({ restartCount: z.int() })).optional(),
    })
    .optional(),
});

const zooTimingSchema = z.looseObject({ tickTime: zooConfigSchema.shape.tickTime, initLimit: zooConfigSchema.shape.initLimit });
const workloadTimingSchema = z.looseObject({ spec: z.looseObject({ config: zooTimingSchema.prefault({}) }) });

/** A member pod: what the planner reads, and its IP for asking ZooKeeper. */
export interface ObservedPod {
  readonly view: PodView;
  readonly ip: string | undefined;
}

/**
 * The update revision counts only once the StatefulSet controller has observed the current spec: before that it is
 * the previous template's, and pods at it would look up to date.
 */
export function statefulSetView(object: unknown, fallbackName: string): StatefulSetView {
  const { metadata, spec, status } = parseShape(statefulSetSchema, object, 'StatefulSet', fallbackName);
  const observed = metadata.generation === undefined || (status?.observedGeneration ?? -1) >= metadata.generation;
  return {
    name: metadata.name,
    updateRevision: observed ? status?.updateRevision : undefined,
    replicas: spec.replicas ?? 1,
    onDelete: spec.updateStrategy?.type === 'OnDelete',
  };
}

/** Pods whose name is not `<statefulset>-<ordinal>` are not members and are left out. */
export function observedPod(object: unknown, statefulSet: string): ObservedPod | undefined {
  const { metadata, status } = parseShape(podSchema, object, 'Pod', `of ${statefulSet}`);
  const ordinal = ordinalOfPod(metadata.name, statefulSet);
  if (ordinal === undefined) return undefined;
  const view: PodView = {
    name: metadata.name,
    uid: metadata.uid,
    ordinal,
    revision: metadata.labels?.[REVISION_LABEL],
    createdAt: new Date(metadata.creationTimestamp),
    ...readiness(status),
    deletion: deletionOf(metadata),
    restartCount: status?.containerStatuses?.reduce((sum, container) => sum + container.restartCount, 0) ?? 0,
  };
  return { view, ip: status?.podIP === '' ? undefined : status?.podIP };
}

/** The tickTime and initLimit the workload renders into zoo.cfg: the spec's, or their defaults when it sets none. */
export function zooTimingOf(workload: KubeObject): RollingPlanInput['zooConfig'] {
  const { tickTime, initLimit } = workloadTimingSchema.safeParse(workload).data?.spec.config ?? zooTimingSchema.parse({});
  return { tickTime, initLimit };
}

type ParsedPod = z.infer<typeof podSchema>;

function readiness(status: ParsedPod['status']): Pick<PodView, 'ready' | 'readyChangedAt'> {
  const ready = status?.conditions?.find((condition) => condition.type === 'Ready');
  const changed = ready?.lastTransitionTime;
  return { ready: ready?.status === 'True', readyChangedAt: changed === undefined ? undefined : new Date(changed) };
}

function deletionOf(metadata: ParsedPod['metadata']): PodView['deletion'] {
  if (metadata.deletionTimestamp === undefined) return undefined;
  return { at: new Date(metadata.deletionTimestamp), gracePeriodSeconds: metadata.deletionGracePeriodSeconds };
}
