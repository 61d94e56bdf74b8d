// The API resources and names the rolling controller reads and writes, and the finalizer it coordinates through; the
// workload annotation it binds with (ROLLING_BINDING_ANNOTATION) and the disruption lock's names are in @zk-oam/apis.
// Its names, one per role, keep their values: each is remembered outside the process (managed fields, the leader
// Lease, the NATS server's consumer, logs and dashboards), so a new value would break an upgrade.
import { disruptionLeaseName, ROLLING_BINDING_ANNOTATION, ZOOKEEPER_ROLLING, ZOOKEEPER_WORKLOAD } from '@zk-oam/apis';
import { coreResources, namespacedResource, type ResourceType, type TraitControllerNames } from '@zk-oam/runtime';

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

export const rollingResource: ResourceType = namespacedResource(ZOOKEEPER_ROLLING);
export const workloadResource: ResourceType = namespacedResource(ZOOKEEPER_WORKLOAD);

/** Its names as the process wiring a trait controller takes them (runtime's startTraitController). */
export const TRAIT_CONTROLLER_NAMES: TraitControllerNames = {
  name: CONTROLLER_NAME,
  fieldManager: FIELD_MANAGER,
  traitResource: rollingResource,
  workloadResource,
  bindingAnnotation: ROLLING_BINDING_ANNOTATION,
  unbindFinalizer: UNBIND_FINALIZER,
  lockLeaseOf: disruptionLeaseName,
  reportingController: REPORTING_CONTROLLER,
  natsDurable: NATS_DURABLE,
};

/** The workload's objects it watches, each mapped to the traits naming the workload. */
export const watchedResources = {
  statefulSet: coreResources.statefulSet,
  pod: coreResources.pod,
} as const satisfies Record<string, ResourceType>;
