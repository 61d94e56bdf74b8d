// The API resources and names the scale controller reads and writes, and the markers it coordinates through.
import { ZOOKEEPER_SCALE, ZOOKEEPER_WORKLOAD } from '@zk-oam/apis';
import { coreResources, namespacedResource, type ResourceType } from '@zk-oam/runtime';

/** Server-side apply field manager (owner of the workload's spec.replicas while bound) and leader-election Lease. */
export const FIELD_MANAGER = 'zk-oam-scale';

/** On the trait: unbinding (annotation removed, lock released) happens before the trait disappears. */
export const UNBIND_FINALIZER = 'scale.zookeeper.zkoam.dev/unbind';

export const scaleResource = namespacedResource(ZOOKEEPER_SCALE);
export const workloadResource = namespacedResource(ZOOKEEPER_WORKLOAD);

export const watchedResources = {
  statefulSet: coreResources.statefulSet,
  pod: coreResources.pod,
  persistentVolumeClaim: coreResources.persistentVolumeClaim,
} as const satisfies Record<string, ResourceType>;
