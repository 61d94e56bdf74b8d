// The slice of a Kubernetes object the kit relies on (metadata), parsed once with zod, and object keys.
import { z } from 'zod';

export const ownerReferenceSchema = z.object({
  apiVersion: z.string(),
  kind: z.string(),
  name: z.string(),
  uid: z.string(),
  controller: z.boolean().optional(),
  blockOwnerDeletion: z.boolean().optional(),
});
export type OwnerReference = z.infer<typeof ownerReferenceSchema>;

export const objectMetaSchema = z
  .object({
    name: z.string(),
    namespace: z.string().optional(),
    uid: z.string().optional(),
    resourceVersion: z.string().optional(),
    generation: z.number().optional(),
    labels: z.record(z.string(), z.string()).optional(),
    annotations: z.record(z.string(), z.string()).optional(),
    ownerReferences: z.array(ownerReferenceSchema).optional(),
    deletionTimestamp: z.string().optional(),
  })
  .loose();

/** Any Kubernetes object: typed metadata, everything else kept as it came. */
export const kubeObjectSchema = z
  .object({
    apiVersion: z.string().optional(),
    kind: z.string().optional(),
    metadata: objectMetaSchema,
  })
  .loose();
export type KubeObject = z.infer<typeof kubeObjectSchema>;

/** Identifies one object; `namespace` is '' for cluster-scoped objects. */
export interface ObjectKey {
  readonly namespace: string;
  readonly name: string;
}

export function keyOf(object: KubeObject): ObjectKey {
  return { namespace: object.metadata.namespace ?? '', name: object.metadata.name };
}

/** `namespace/name`, or `name` for cluster-scoped objects (the work queue's key format). */
export function formatKey(key: ObjectKey): string {
  return key.namespace === '' ? key.name : `${key.namespace}/${key.name}`;
}

export function parseKey(text: string): ObjectKey {
  const slash = text.indexOf('/');
  return slash < 0 ? { namespace: '', name: text } : { namespace: text.slice(0, slash), name: text.slice(slash + 1) };
}
