// How a trait tells the workload controller that it is bound: an annotation on the workload whose value is the trait's
// name. The trait's controller writes it (the runtime's TraitBinding) and the workload controller reads it.

/** While a ZookeeperScale is bound: the workload controller then follows spec.replicas, which the scale trait sets. */
export const SCALE_BINDING_ANNOTATION = 'scale.zookeeper.zkoam.dev/trait';

/** While a ZookeeperRolling is bound: the workload controller then renders the StatefulSet `OnDelete`. */
export const ROLLING_BINDING_ANNOTATION = 'rolling.zookeeper.zkoam.dev/trait';
