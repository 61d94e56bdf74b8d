// Patches of a whole object for what server-side apply does not fit, neither of which creates an object that is gone
// (an apply would): a merge patch replacing a list under the resourceVersion precondition its body carries, and a
// JSON patch whose `test` operations make it apply only to the state it was computed from.
import { PatchStrategy } from '@kubernetes/client-node';
import type { KubeClient } from '../kube/client.js';
import { objectPath, type ResourceType } from '../kube/resource.js';
import type { ObjectKey } from '../kube/object.js';

export type JsonPatchOperation = { readonly op: 'add' | 'replace' | 'test'; readonly path: string; readonly value: unknown } | { readonly op: 'remove'; readonly path: string };

export function mergePatchObject(client: Pick<KubeClient, 'request'>, resource: ResourceType, key: ObjectKey, body: unknown, fieldManager: string): Promise<unknown> {
  return client.request('PATCH', objectPath(resource, key), { body, contentType: PatchStrategy.MergePatch, query: { fieldManager } });
}

export function jsonPatchObject(
  client: Pick<KubeClient, 'request'>,
  resource: ResourceType,
  key: ObjectKey,
  operations: readonly JsonPatchOperation[],
  fieldManager: string,
): Promise<unknown> {
  return client.request('PATCH', objectPath(resource, key), { body: operations, contentType: PatchStrategy.JsonPatch, query: { fieldManager } });
}
