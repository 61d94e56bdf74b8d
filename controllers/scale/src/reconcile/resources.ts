// The API resources and names the scale controller reads and writes, and the markers it coordinates through.
// Its names, one per role, keep their values: each is remembered outside the process (managed fields, the leader
// Lease, the NATS server's consumer, logs and dashboards), so a new value would break an upgrade.
import {
  controllerIdentity,
  SCALE_BINDING_ANNOTATION,
  scaleStatusSchema,
  ZOOKEEPER_SCALE,
  ZOOKEEPER_WORKLOAD,
  type ControllerIdentity,
} from '@zk-oam/apis';
import { coreResources, namespacedResource, type ResourceType, type TraitControllerNames, type StatusTarget } from '@zk-oam/runtime';

/** Its names, one per role (apis' ControllerIdentity says what each is for, and why none may change). */
export const IDENTITY: ControllerIdentity = controllerIdentity('scale');

/** On the trait: unbinding (annotation removed, lock released) happens before the trait disappears. */
export const UNBIND_FINALIZER = 'scale.zookeeper.zkoam.dev/unbind';

export const scaleResource: ResourceType = namespacedResource(ZOOKEEPER_SCALE);
export const workloadResource: ResourceType = namespacedResource(ZOOKEEPER_WORKLOAD);

/** Its names as the process wiring a trait controller takes them (runtime's startTraitController). */
export const TRAIT_CONTROLLER_NAMES: TraitControllerNames = { ...IDENTITY, traitResource: scaleResource, workloadResource, bindingAnnotation: SCALE_BINDING_ANNOTATION, unbindFinalizer: UNBIND_FINALIZER };

/** Where the trait's status is written, as a whole, by this controller's field manager. */
export const SCALE_STATUS: StatusTarget<typeof scaleStatusSchema> = { resource: scaleResource, schema: scaleStatusSchema, fieldManager: IDENTITY.fieldManager };

/** The workload's objects it watches, each mapped to the traits naming the workload. */
export const watchedResources = {
  statefulSet: coreResources.statefulSet,
  pod: coreResources.pod,
  persistentVolumeClaim: coreResources.persistentVolumeClaim,
} as const satisfies Record<string, ResourceType>;
