// Annotations and names through which the workload controller and the traits coordinate on Kubernetes objects.

/** This controller's server-side apply field manager (and the name of its Lease). */
export const FIELD_MANAGER = 'zk-oam-workload';

/** Set by the scale controller on a workload its ZookeeperScale is bound to; the value is the trait's name. */
export const SCALE_TRAIT_ANNOTATION = 'scale.zookeeper.zkoam.dev/trait';

/** Set by the rolling controller on a workload its ZookeeperRolling is bound to; the StatefulSet then uses OnDelete. */
export const ROLLING_TRAIT_ANNOTATION = 'rolling.zookeeper.zkoam.dev/trait';

/** On every child: the hash of what was last applied, so an unchanged child is never written again. */
export const APPLIED_HASH_ANNOTATION = 'workload.zookeeper.zkoam.dev/applied-hash';

/** On the StatefulSet: the size of the first configuration ever bootstrapped, fixed for the workload's life. */
export const INITIAL_MEMBERS_ANNOTATION = 'workload.zookeeper.zkoam.dev/initial-members';

/** On the StatefulSet: the quorum TLS step its template renders (QUORUM_TLS_STEPS), so a move to TLS resumes where it was. */
export const QUORUM_TLS_ANNOTATION = 'workload.zookeeper.zkoam.dev/quorum-tls';
