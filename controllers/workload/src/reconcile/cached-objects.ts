// Narrow views of children read from the informer caches, parsed once and shaped as the client-node types the
// observer takes. Only the fields the reconcile reads are kept.
import type { V1Pod, V1StatefulSet } from '@kubernetes/client-node';
import type { KubeObject } from '@zk-oam/runtime';
import { z } from 'zod';

const labelsSchema = z.record(z.string(), z.string()).optional();

const statefulSetViewSchema = z.looseObject({
  metadata: z.looseObject({ name: z.string(), annotations: labelsSchema }),
  spec: z.looseObject({
    replicas: z.int().optional(),
    selector: z.looseObject({ matchLabels: labelsSchema }),
  }),
  status: z
    .looseObject({ currentRevision: z.string().optional(), updateRevision: z.string().optional() })
    .optional(),
});

const podViewSchema = z.looseObject({
  metadata: z.looseObject({ name: z.string(), namespace: z.string().optional(), labels: labelsSchema }),
  status: z.looseObject({ podIP: z.string().optional() }).optional(),
});

export class CachedObjectShapeError extends Error {
  override readonly name = 'CachedObjectShapeError';
  constructor(kind: string, name: string, options: ErrorOptions) {
    super(`cached ${kind} ${name} lacks a field the reconcile reads`, options);
  }
}

export function statefulSetView(object: KubeObject): V1StatefulSet {
  const parsed = statefulSetViewSchema.safeParse(object);
  if (!parsed.success) throw new CachedObjectShapeError('StatefulSet', object.metadata.name, { cause: parsed.error });
  const { metadata, spec, status } = parsed.data;
  return {
    metadata: { name: metadata.name, annotations: metadata.annotations },
    spec: { replicas: spec.replicas, selector: { matchLabels: spec.selector.matchLabels }, template: {} },
    status: { replicas: 0, currentRevision: status?.currentRevision, updateRevision: status?.updateRevision },
  };
}

export function podView(object: KubeObject): V1Pod {
  const parsed = podViewSchema.safeParse(object);
  if (!parsed.success) throw new CachedObjectShapeError('Pod', object.metadata.name, { cause: parsed.error });
  const { metadata, status } = parsed.data;
  return {
    metadata: { name: metadata.name, namespace: metadata.namespace, labels: metadata.labels },
    status: { podIP: status?.podIP },
  };
}

const KEPT_POD_METADATA = ['name', 'namespace', 'uid', 'resourceVersion', 'labels', 'deletionTimestamp', 'ownerReferences'] as const;
const podEssentialsSchema = z.looseObject({
  metadata: z.looseObject({}),
  status: z.looseObject({ podIP: z.string().optional() }).optional(),
});

/**
 * What the pod informer keeps of a member pod: its identity, labels (the pod -> workload mapping) and pod IP (podView).
 * Specs and the rest of the status are most of a pod's size and are never read here, so 1,000 ensembles cost little.
 */
export function podEssentials(object: Record<string, unknown>): Record<string, unknown> {
  const parsed = podEssentialsSchema.safeParse(object);
  if (!parsed.success) return object;
  const { metadata, status } = parsed.data;
  const kept = Object.fromEntries(KEPT_POD_METADATA.flatMap((field) => (metadata[field] === undefined ? [] : [[field, metadata[field]]])));
  return { metadata: kept, ...(status?.podIP === undefined ? {} : { status: { podIP: status.podIP } }) };
}
