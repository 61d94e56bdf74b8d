// Step: the live state of rendered objects another object's data input reads, by refKey; one not created yet is absent.
import { isApiError, objectPath, type KubeClient } from '@zk-oam/runtime';
import type { RenderedObject } from '../render/outcome.js';
import { refKey } from './refs.js';

export async function readLive(client: KubeClient, objects: readonly RenderedObject[], namespace: string): Promise<Map<string, unknown>> {
  const live = new Map<string, unknown>();
  for (const object of objects) {
    try {
      live.set(refKey(object.ref), await client.request('GET', objectPath(object.resource, { namespace, name: object.ref.name })));
    } catch (error) {
      if (!isApiError(error, 404)) throw error;
    }
  }
  return live;
}
