// The envelope shared by every custom resource schema: apiVersion and kind fixed by the kind, metadata, spec, status.
import { z } from 'zod';
import { objectMetaSchema } from './object-meta.js';

export type CustomResourceSchema<A extends string, K extends string, S extends z.ZodType, T extends z.ZodType> = z.ZodObject<{
  apiVersion: z.ZodLiteral<A>;
  kind: z.ZodLiteral<K>;
  metadata: typeof objectMetaSchema;
  spec: S;
  status: z.ZodOptional<T>;
}>;

/** A whole object of a kind as read from the API; status is absent until a controller writes it. */
export function customResourceSchema<const A extends string, const K extends string, S extends z.ZodType, T extends z.ZodType>(
  kind: { apiVersion: A; kind: K },
  spec: S,
  status: T,
): CustomResourceSchema<A, K, S, T> {
  return z.object({
    apiVersion: z.literal(kind.apiVersion),
    kind: z.literal(kind.kind),
    metadata: objectMetaSchema,
    spec,
    status: status.optional(),
  });
}
