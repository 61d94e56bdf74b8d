// Act: delete the pods of a DeletePods step, each with its uid as a precondition, so a stale plan never deletes the
// replacement the StatefulSet controller created under the same name.
import { coreResources, isApiError, objectPath, type KubeClient } from '@zk-oam/runtime';
import type { PodToDelete } from '../plan/index.js';

/** Returns the pods this call deleted; one already gone (404) or already replaced (409, uid differs) is skipped. */
export async function deletePods(client: Pick<KubeClient, 'request'>, namespace: string, pods: readonly PodToDelete[]): Promise<PodToDelete[]> {
  const deleted: PodToDelete[] = [];
  for (const pod of pods) {
    try {
      await client.request('DELETE', objectPath(coreResources.pod, { namespace, name: pod.name }), {
        body: { apiVersion: 'v1', kind: 'DeleteOptions', preconditions: { uid: pod.uid } },
      });
      deleted.push(pod);
    } catch (error) {
      if (!isApiError(error, 404) && !isApiError(error, 409)) throw error;
    }
  }
  return deleted;
}
