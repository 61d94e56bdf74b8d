// Typed references as keys, and whether a live object is controlled by a given ApplicationConfiguration; pure.
import type { TypedReference } from '@zk-oam/apis';
import { z } from 'zod';

export function refKey(ref: TypedReference): string {
  return `${ref.apiVersion}/${ref.kind}/${ref.name}`;
}

export const liveObjectSchema = z.looseObject({
  metadata: z.looseObject({
    resourceVersion: z.string().optional(),
    uid: z.string().optional(),
    ownerReferences: z.array(z.looseObject({ kind: z.string(), name: z.string(), uid: z.string(), controller: z.boolean().optional() })).optional(),
  }),
});
export type LiveObject = z.infer<typeof liveObjectSchema>;

export function controllerOf(live: LiveObject): { kind: string; name: string; uid: string } | undefined {
  return live.metadata.ownerReferences?.find((owner) => owner.controller === true);
}
