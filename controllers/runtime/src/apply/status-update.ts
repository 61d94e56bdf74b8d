// Read-compute-write of the status subresource with a resourceVersion precondition, retried on conflict.
import { PatchStrategy } from '@kubernetes/client-node';
import type { z } from 'zod';
import type { KubeClient } from '../kube/client.js';
import { objectPath, type ResourceType } from '../kube/resource.js';
import type { KubeObject, ObjectKey } from '../kube/object.js';
import { retryOnConflict, type ConflictRetryOptions } from './conflict-retry.js';

export interface StatusUpdate<T extends KubeObject> {
  readonly client: KubeClient;
  readonly resource: ResourceType;
  readonly key: ObjectKey;
  readonly schema: z.ZodType<T>;
  /** Computes the status fields to merge from the latest object; called again after each conflict. */
  readonly compute: (current: T) => Readonly<Record<string, unknown>>;
  readonly retry?: ConflictRetryOptions;
}

/** Merge-patches the status computed from a fresh read, so a concurrent writer is never overwritten blindly. */
export function updateStatus<T extends KubeObject>(update: StatusUpdate<T>): Promise<unknown> {
  const { client, resource, key, schema } = update;
  return retryOnConflict(async () => {
    const current = schema.parse(await client.request('GET', objectPath(resource, key)));
    return client.request('PATCH', objectPath(resource, key, 'status'), {
      body: { metadata: { resourceVersion: current.metadata.resourceVersion }, status: update.compute(current) },
      contentType: PatchStrategy.MergePatch,
    });
  }, update.retry);
}
