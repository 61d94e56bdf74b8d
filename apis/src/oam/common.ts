// Pieces shared by the OAM kinds: typed references, embedded objects, crossplane-style conditions.
import { z } from 'zod';
import { conditionSchema } from '../common/conditions.js';
import { embeddedResource, listMap, preserveUnknownFields } from '../common/structural.js';

/** A reference to an object by apiVersion, kind and name (crossplane-runtime TypedReference). */
export const typedReferenceSchema = z.object({
  apiVersion: z.string().min(1),
  kind: z.string().min(1),
  name: z.string().min(1),
  uid: z.string().optional(),
});
export type TypedReference = z.infer<typeof typedReferenceSchema>;

/** A whole Kubernetes object embedded in another (runtime.RawExtension with EmbeddedResource). */
export const embeddedObjectSchema = embeddedResource(
  z.looseObject({
    apiVersion: z.string().min(1),
    kind: z.string().min(1),
    metadata: preserveUnknownFields(
      z.looseObject({
        name: z.string().optional(),
        labels: z.record(z.string(), z.string()).optional(),
        annotations: z.record(z.string(), z.string()).optional(),
      }),
    ).optional(),
  }),
);
export type EmbeddedObject = z.infer<typeof embeddedObjectSchema>;

/** OAM conditions (crossplane-runtime): like metav1.Condition, with the message optional. */
export const oamConditionsSchema = listMap(z.array(conditionSchema.partial({ message: true })).max(32), 'type');
