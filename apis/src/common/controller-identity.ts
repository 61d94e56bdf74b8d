// A controller's names, one per role. Each is remembered outside the process: managed fields, the leader Lease (and
// the RBAC that names it), the NATS server's durable consumer, Events' reportingController, logs and dashboards. A new
// value would break an upgrade, so they keep the values every release has had.

/** The controllers, each by the short name the manager's CONTROLLERS setting and the docs use. */
export type ControllerRole = 'workload' | 'scale' | 'rolling' | 'appconfig' | 'znode' | 'backup';

export interface ControllerIdentity {
  /** Its name in logs, on its NATS connection and as the `source` of the events it publishes. */
  readonly name: string;
  /** The field manager of its writes: server-side applies, status, finalizers and annotations. */
  readonly fieldManager: string;
  /** The Lease its replicas elect their leader by. */
  readonly leaderElectionLease: string;
  /** The JetStream durable consumer of workload facts (for the controllers that follow them). */
  readonly natsDurable: string;
  /** The reportingController of its Kubernetes Events. */
  readonly reportingController: string;
}

/** The appconfig controller reports as oam-kubernetes-runtime's does; the others under the ZooKeeper kinds' domain. */
const EVENTS_DOMAIN: Readonly<Record<ControllerRole, string>> = {
  workload: 'zookeeper.zkoam.dev',
  scale: 'zookeeper.zkoam.dev',
  rolling: 'zookeeper.zkoam.dev',
  znode: 'zookeeper.zkoam.dev',
  backup: 'zookeeper.zkoam.dev',
  appconfig: 'core.oam.dev',
};

export function controllerIdentity(role: ControllerRole): ControllerIdentity {
  const name = `zk-oam-${role}`;
  return { name, fieldManager: name, leaderElectionLease: name, natsDurable: name, reportingController: `${EVENTS_DOMAIN[role]}/${role}` };
}
