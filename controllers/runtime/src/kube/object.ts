// The slice of a Kubernetes object the kit relies on (metadata), parsed once with zod, and object keys.
import { objectMetaSchema, type ownerReferenceSchema } from '@zk-oam/apis';
import { z } from 'zod';

export type OwnerReference = z.infer<typeof ownerReferenceSchema>;

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
