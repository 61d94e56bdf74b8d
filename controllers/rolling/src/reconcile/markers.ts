// Names through which the rolling controller coordinates on Kubernetes objects: its field manager, the finalizer, the
// lock holder. The workload annotation it binds with (ROLLING_BINDING_ANNOTATION) is in @zk-oam/apis.
import { disruptionLockHolder, ZOOKEEPER_ROLLING, ZOOKEEPER_WORKLOAD } from '@zk-oam/apis';
import { namespacedResource, type ResourceType } from '@zk-oam/runtime';

/** Server-side apply field manager, leader-election Lease name and NATS durable consumer. */
export const FIELD_MANAGER = 'zk-oam-rolling';

/** On the trait, so the annotation is removed (the StatefulSet returns to RollingUpdate) before the trait goes. */
export const UNBIND_FINALIZER = 'rolling.zookeeper.zkoam.dev/unbind';

/** This trait's holder of the per-workload disruption lock it shares with the scale controller. */
export function lockHolder(traitName: string): string {
  return disruptionLockHolder('rolling', traitName);
}

export const rollingResource: ResourceType = namespacedResource(ZOOKEEPER_ROLLING);

export const workloadResource: ResourceType = namespacedResource(ZOOKEEPER_WORKLOAD);
