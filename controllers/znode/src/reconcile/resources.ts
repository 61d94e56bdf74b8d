// The names and kinds the znode controller reads and writes. Its names, one per role, keep their values: each is
// remembered outside the process (managed fields, finalizers, the leader Lease, logs and dashboards).
import { ZOOKEEPER_WORKLOAD, ZOOKEEPER_ZNODE, znodeStatusSchema } from '@zk-oam/apis';
import { coreResources, keepFields, namespacedResource, type ResourceType, type StatusTarget } from '@zk-oam/runtime';

/** Its name in logs. */
export const CONTROLLER_NAME = 'zk-oam-znode';

/** Field manager of its writes: the znode's status, finalizer and discovery objects. */
export const FIELD_MANAGER = 'zk-oam-znode';

/** The Lease its replicas elect their leader by. */
export const LEADER_ELECTION_LEASE = 'zk-oam-znode';

/** The reportingController of its Kubernetes Events. */
export const REPORTING_CONTROLLER = 'zookeeper.zkoam.dev/znode';

/** On the znode: the path is removed (or kept, under Retain) and the tenant's user dropped before the znode goes. */
export const ZNODE_FINALIZER = 'znode.zookeeper.zkoam.dev/path';

/**
 * The field manager of one znode's SASL user in the workload's users Secret: one per znode, so that each applies its
 * own key alone and removing it (an apply without it) leaves the person's users and the other tenants' untouched.
 */
export function credentialsFieldManager(znodeUid: string): string {
  return `${FIELD_MANAGER}/${znodeUid}`;
}

export const znodeResource: ResourceType = namespacedResource(ZOOKEEPER_ZNODE);
export const workloadResource: ResourceType = namespacedResource(ZOOKEEPER_WORKLOAD);

export const ZNODE_STATUS: StatusTarget<typeof znodeStatusSchema> = { resource: znodeResource, schema: znodeStatusSchema, fieldManager: FIELD_MANAGER };

/**
 * The workload's member pods: where the admin session goes, and which JAAS revision each member started with.
 * Namespaces: their labels, which a workload's spec.znodes.namespaceSelector admits znodes of other namespaces by.
 */
export const watchedResources = {
  pod: coreResources.pod,
  namespace: { group: '', version: 'v1', plural: 'namespaces', kind: 'Namespace', namespaced: false },
} as const satisfies Record<string, ResourceType>;

/** What the informers keep: of a pod, the SASL revision annotation, the IP and readiness, never the spec; of a namespace, its labels. */
export const CACHED_FIELDS = {
  pod: keepFields({ annotations: true, paths: [['status', 'podIP'], ['status', 'conditions']] }),
  namespace: keepFields({}),
} as const;
