// Reading objects as the apiserver has them now: one by resource and key (absent when it does not exist), and the
// rendered objects data inputs read.
import { isApiError, objectPath, type KubeClient, type ObjectKey, type ResourceType } from '@zk-oam/runtime';
import type { RenderedObject } from '../render/outcome.js';
import { liveObjectSchema, refKey, type LiveObject } from './refs.js';

export async function readLiveObject(client: KubeClient, resource: ResourceType, key: ObjectKey): Promise<LiveObject | undefined> {
  try {
    return liveObjectSchema.parse(await client.request('GET', objectPath(resource, key)));
  } catch (error) {
    if (isApiError(error, 404)) return undefined;
    throw error;
  }
}

/** The live state of rendered objects another object's data input reads, by refKey; one not created yet is absent. */
export async function readSources(client: KubeClient, objects: readonly RenderedObject[], namespace: string): Promise<Map<string, LiveObject>> {
  const live = new Map<string, LiveObject>();
  for (const object of objects) {
    const found = await readLiveObject(client, object.resource, { namespace, name: object.ref.name });
    if (found !== undefined) live.set(refKey(object.ref), found);
  }
  return live;
}
