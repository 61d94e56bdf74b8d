// The resource types the console reads and writes: the three ZooKeeper kinds and core Events.
import { ZOOKEEPER_ROLLING, ZOOKEEPER_SCALE, ZOOKEEPER_WORKLOAD } from '@zk-oam/apis';
import { namespacedResource, type ResourceType } from '@zk-oam/runtime';

export const workloads = namespacedResource(ZOOKEEPER_WORKLOAD);
export const scales = namespacedResource(ZOOKEEPER_SCALE);
export const rollings = namespacedResource(ZOOKEEPER_ROLLING);
/** core/v1 Events: events.k8s.io Events written by the controllers read back with a field selector on the object. */
export const events: ResourceType = { group: '', version: 'v1', plural: 'events', kind: 'Event', namespaced: true };
