// Step: deletes what the last status says this ApplicationConfiguration rendered and the next status no longer
// lists (a component or trait removed from the spec), only while this ApplicationConfiguration controls it.
import type { TypedReference } from '@zk-oam/apis';
import { apiVersionOf, isApiError, objectPath, type KubeClient, type ObjectKey, type ResourceType } from '@zk-oam/runtime';
import { readLiveObject } from './read-live.js';
import { controllerOf, refKey } from './refs.js';

export interface PruneInput {
  readonly previous: readonly TypedReference[];
  readonly next: readonly TypedReference[];
  readonly namespace: string;
  readonly ownerUid: string;
  /** The served kinds, covering every apiVersion in `previous`. */
  readonly resources: readonly ResourceType[];
}

export function stale(previous: readonly TypedReference[], next: readonly TypedReference[]): TypedReference[] {
  const kept = new Set(next.map(refKey));
  const seen = new Set<string>();
  return previous.filter((ref) => {
    const key = refKey(ref);
    if (kept.has(key) || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

async function deleteIfControlled(client: KubeClient, resource: ResourceType, key: ObjectKey, ownerUid: string): Promise<boolean> {
  const live = await readLiveObject(client, resource, key);
  if (live === undefined || controllerOf(live)?.uid !== ownerUid || live.metadata.uid === undefined) return false;
  const path = objectPath(resource, key);
  try {
    // The uid precondition: an object re-created meanwhile under the same name is not ours to delete.
    await client.request('DELETE', path, { body: { apiVersion: 'v1', kind: 'DeleteOptions', propagationPolicy: 'Background', preconditions: { uid: live.metadata.uid } } });
  } catch (error) {
    if (isApiError(error, 404) || isApiError(error, 409)) return false;
    throw error;
  }
  return true;
}

/** Returns what was deleted. A kind no longer served has no objects left to delete. */
export async function pruneStale(client: KubeClient, input: PruneInput): Promise<TypedReference[]> {
  const deleted: TypedReference[] = [];
  for (const ref of stale(input.previous, input.next)) {
    const resource = input.resources.find((candidate) => apiVersionOf(candidate) === ref.apiVersion && candidate.kind === ref.kind);
    if (resource === undefined) continue;
    if (await deleteIfControlled(client, resource, { namespace: input.namespace, name: ref.name }, input.ownerUid)) deleted.push(ref);
  }
  return deleted;
}
