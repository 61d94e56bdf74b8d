// The workload controller's own names and the annotations it keeps on what it renders; those that record a TLS step
// are with TLS (tls/quorum-steps.ts, tls/ca-rotation.ts), and the traits' binding annotations, which it reads, are in
// @zk-oam/apis. Its names, one per role, keep their values: each is remembered outside the process (managed fields,
// the leader Lease, logs and dashboards), so a new value would break an upgrade.

/** Its name in logs, on its NATS connection and as the `source` of the events it publishes. */
export const CONTROLLER_NAME = 'zk-oam-workload';

/** Server-side apply field manager: of everything it renders and of the workload's status. */
export const FIELD_MANAGER = 'zk-oam-workload';

/** The Lease its replicas elect their leader by. */
export const LEADER_ELECTION_LEASE = 'zk-oam-workload';

/** The reportingController of its Kubernetes Events. */
export const REPORTING_CONTROLLER = 'zookeeper.zkoam.dev/workload';

/** On every child: the hash of what was last applied, so an unchanged child is never written again. */
export const APPLIED_HASH_ANNOTATION = 'workload.zookeeper.zkoam.dev/applied-hash';

/** On the StatefulSet: the size of the first configuration ever bootstrapped, fixed for the workload's life. */
export const INITIAL_MEMBERS_ANNOTATION = 'workload.zookeeper.zkoam.dev/initial-members';
