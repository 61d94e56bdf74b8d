// A controller's finalizer on an object it must clean up after: added before anything is made for the object, removed
// once the cleanup is done. Merge patches under the resourceVersion read, so a concurrent change makes them fail (409,
// retried with backoff) rather than lose another controller's finalizer.
import type { KubeClient } from '../kube/client.js';
import { keyOf, type KubeObject } from '../kube/object.js';
import type { ResourceType } from '../kube/resource.js';
import { mergePatchObject } from './patch.js';

/** Adds `finalizer` unless the object carries it; returns whether it wrote. */
export async function ensureFinalizer(client: Pick<KubeClient, 'request'>, resource: ResourceType, object: KubeObject, finalizer: string, fieldManager: string): Promise<boolean> {
  const finalizers = object.metadata.finalizers ?? [];
  if (finalizers.includes(finalizer)) return false;
  await mergePatchObject(client, resource, keyOf(object), { metadata: { resourceVersion: object.metadata.resourceVersion, finalizers: [...finalizers, finalizer] } }, fieldManager);
  return true;
}

/** Removes `finalizer` if the object carries it; returns whether it wrote. */
export async function removeFinalizer(client: Pick<KubeClient, 'request'>, resource: ResourceType, object: KubeObject, finalizer: string, fieldManager: string): Promise<boolean> {
  const finalizers = object.metadata.finalizers ?? [];
  if (!finalizers.includes(finalizer)) return false;
  const rest = finalizers.filter((entry) => entry !== finalizer);
  await mergePatchObject(client, resource, keyOf(object), { metadata: { resourceVersion: object.metadata.resourceVersion, finalizers: rest } }, fieldManager);
  return true;
}
