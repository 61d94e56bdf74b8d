// The API resources and names the rolling controller reads and writes, and the finalizer it coordinates through; the
// workload annotation it binds with (ROLLING_BINDING_ANNOTATION) and the disruption lock's names are in @zk-oam/apis.
// Its names, one per role, keep their values: each is remembered outside the process (managed fields, the leader
// Lease, the NATS server's consumer, logs and dashboards), so a new value would break an upgrade.
import { controllerIdentity, ROLLING_BINDING_ANNOTATION, ZOOKEEPER_ROLLING, ZOOKEEPER_WORKLOAD, type ControllerIdentity } from '@zk-oam/apis';
import { coreResources, namespacedResource, type ResourceType, type TraitControllerNames } from '@zk-oam/runtime';

/** Its names, one per role (apis' ControllerIdentity says what each is for, and why none may change). */
export const IDENTITY: ControllerIdentity = controllerIdentity('rolling');

/** On the trait, so the annotation is removed (the StatefulSet returns to RollingUpdate) before the trait goes. */
export const UNBIND_FINALIZER = 'rolling.zookeeper.zkoam.dev/unbind';

export const rollingResource: ResourceType = namespacedResource(ZOOKEEPER_ROLLING);
export const workloadResource: ResourceType = namespacedResource(ZOOKEEPER_WORKLOAD);

/** Its names as the process wiring a trait controller takes them (runtime's startTraitController). */
export const TRAIT_CONTROLLER_NAMES: TraitControllerNames = { ...IDENTITY, traitResource: rollingResource, workloadResource, bindingAnnotation: ROLLING_BINDING_ANNOTATION, unbindFinalizer: UNBIND_FINALIZER };

/** The workload's objects it watches, each mapped to the traits naming the workload. */
export const watchedResources = {
  statefulSet: coreResources.statefulSet,
  pod: coreResources.pod,
} as const satisfies Record<string, ResourceType>;
