// The status is written under the resourceVersion the reconcile read the trait at. The trait comes from the informer's
// cache, which can lag this controller's own last write: a reconcile planned from such a view would not see the
// handover record or the progress it holds, and could restart the former leader as a follower and drop the record.
// The apiserver refuses that write (409), nothing is acted on, and the next reconcile plans from the newer version.
import type { ZookeeperRollingStatus } from '@zk-oam/apis';
import { applyStatus, isApiError, type KubeClient, type ObjectKey } from '@zk-oam/runtime';
import { IDENTITY, rollingResource } from './resources.js';

export type StatusWrite = 'written' | 'stale';

export async function writeStatusIfCurrent(
  client: Pick<KubeClient, 'request'>,
  key: ObjectKey,
  status: ZookeeperRollingStatus,
  resourceVersion: string | undefined,
): Promise<StatusWrite> {
  try {
    await applyStatus(client, rollingResource, key, { ...status }, { fieldManager: IDENTITY.fieldManager, resourceVersion });
    return 'written';
  } catch (error) {
    if (isApiError(error, 409)) return 'stale';
    throw error;
  }
}
