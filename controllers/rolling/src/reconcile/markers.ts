// Names through which the rolling controller coordinates on Kubernetes objects and NATS: its own names, the finalizer,
// the lock holder. The workload annotation it binds with (ROLLING_BINDING_ANNOTATION) is in @zk-oam/apis.
// Its names, one per role, keep their values: each is remembered outside the process (managed fields, the leader
// Lease, the NATS server's consumer, logs and dashboards), so a new value would break an upgrade.
import { disruptionLockHolder, ZOOKEEPER_ROLLING, ZOOKEEPER_WORKLOAD } from '@zk-oam/apis';
import { namespacedResource, type ResourceType } from '@zk-oam/runtime';

/** Its name in logs, on its NATS connection and as the `source` of the events it publishes. */
export const CONTROLLER_NAME = 'zk-oam-rolling';

/** Field manager of its writes: the workload's binding annotation and the trait's status. */
export const FIELD_MANAGER = 'zk-oam-rolling';

/** The Lease its replicas elect their leader by. */
export const LEADER_ELECTION_LEASE = 'zk-oam-rolling';

/** The JetStream durable consumer of workload facts: the NATS server keeps its place in the stream by this name. */
export const NATS_DURABLE = 'zk-oam-rolling';

/** The reportingController of its Kubernetes Events. */
export const REPORTING_CONTROLLER = 'zookeeper.zkoam.dev/rolling';

/** On the trait, so the annotation is removed (the StatefulSet returns to RollingUpdate) before the trait goes. */
export const UNBIND_FINALIZER = 'rolling.zookeeper.zkoam.dev/unbind';

/** This trait's holder of the per-workload disruption lock it shares with the scale controller. */
export function lockHolder(traitName: string): string {
  return disruptionLockHolder('rolling', traitName);
}

export const rollingResource: ResourceType = namespacedResource(ZOOKEEPER_ROLLING);

export const workloadResource: ResourceType = namespacedResource(ZOOKEEPER_WORKLOAD);
