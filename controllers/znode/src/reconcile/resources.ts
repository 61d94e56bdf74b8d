// The names and kinds the znode controller reads and writes. Its names, one per role, keep their values: each is
// remembered outside the process (managed fields, finalizers, the leader Lease, logs and dashboards).
import { controllerIdentity, MEMBER_POD_FIELDS, znodeStatusSchema, ZOOKEEPER_WORKLOAD, ZOOKEEPER_ZNODE, type ControllerIdentity } from '@zk-oam/apis';
import { coreResources, keepFields, namespacedResource, type ResourceType, type StatusTarget } from '@zk-oam/runtime';

/** Its names, one per role (apis' ControllerIdentity says what each is for, and why none may change). */
export const IDENTITY: ControllerIdentity = controllerIdentity('znode');

/** On the znode: the path is removed (or kept, under Retain) and the tenant's user dropped before the znode goes. */
export const ZNODE_FINALIZER = 'znode.zookeeper.zkoam.dev/path';

/**
 * The field manager of one znode's SASL user in the workload's users Secret: one per znode, so that each applies its
 * own key alone and removing it (an apply without it) leaves the person's users and the other tenants' untouched.
 */
export function credentialsFieldManager(znodeUid: string): string {
  return `${IDENTITY.fieldManager}/${znodeUid}`;
}

export const znodeResource: ResourceType = namespacedResource(ZOOKEEPER_ZNODE);
export const workloadResource: ResourceType = namespacedResource(ZOOKEEPER_WORKLOAD);

export const ZNODE_STATUS: StatusTarget<typeof znodeStatusSchema> = { resource: znodeResource, schema: znodeStatusSchema, fieldManager: IDENTITY.fieldManager };

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
  pod: keepFields(MEMBER_POD_FIELDS),
  namespace: keepFields({}),
} as const;
