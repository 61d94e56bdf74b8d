// The API resources and names the scale controller reads and writes, and the markers it coordinates through.
// Its names, one per role, keep their values: each is remembered outside the process (managed fields, the leader
// Lease, the NATS server's consumer, logs and dashboards), so a new value would break an upgrade.
import { disruptionLeaseName, SCALE_BINDING_ANNOTATION, scaleStatusSchema, ZOOKEEPER_SCALE, ZOOKEEPER_WORKLOAD } from '@zk-oam/apis';
import { coreResources, namespacedResource, type ResourceType, type TraitControllerNames, type StatusTarget } from '@zk-oam/runtime';

/** Its name in logs, on its NATS connection and as the `source` of the events it publishes. */
export const CONTROLLER_NAME = 'zk-oam-scale';

/** Field manager of its writes: the workload's spec.replicas (while bound) and binding annotation, the trait's status. */
export const FIELD_MANAGER = 'zk-oam-scale';

/** The Lease its replicas elect their leader by. */
export const LEADER_ELECTION_LEASE = 'zk-oam-scale';

/** The JetStream durable consumer of workload facts: the NATS server keeps its place in the stream by this name. */
export const NATS_DURABLE = 'zk-oam-scale';

/** The reportingController of its Kubernetes Events. */
export const REPORTING_CONTROLLER = 'zookeeper.zkoam.dev/scale';

/** On the trait: unbinding (annotation removed, lock released) happens before the trait disappears. */
export const UNBIND_FINALIZER = 'scale.zookeeper.zkoam.dev/unbind';

export const scaleResource: ResourceType = namespacedResource(ZOOKEEPER_SCALE);
export const workloadResource: ResourceType = namespacedResource(ZOOKEEPER_WORKLOAD);

/** Its names as the process wiring a trait controller takes them (runtime's startTraitController). */
export const TRAIT_CONTROLLER_NAMES: TraitControllerNames = {
  name: CONTROLLER_NAME,
  fieldManager: FIELD_MANAGER,
  traitResource: scaleResource,
  workloadResource,
  bindingAnnotation: SCALE_BINDING_ANNOTATION,
  unbindFinalizer: UNBIND_FINALIZER,
  lockLeaseOf: disruptionLeaseName,
  reportingController: REPORTING_CONTROLLER,
  natsDurable: NATS_DURABLE,
};

/** Where the trait's status is written, as a whole, by this controller's field manager. */
export const SCALE_STATUS: StatusTarget<typeof scaleStatusSchema> = { resource: scaleResource, schema: scaleStatusSchema, fieldManager: FIELD_MANAGER };

/** The workload's objects it watches, each mapped to the traits naming the workload. */
export const watchedResources = {
  statefulSet: coreResources.statefulSet,
  pod: coreResources.pod,
  persistentVolumeClaim: coreResources.persistentVolumeClaim,
} as const satisfies Record<string, ResourceType>;
