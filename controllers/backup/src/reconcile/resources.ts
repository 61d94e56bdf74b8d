// The names and kinds the backup controller reads and writes. Its names, one per role, keep their values: each is
// remembered outside the process (managed fields, the leader Lease, logs and dashboards).
import { backupStatusSchema, controllerIdentity, MEMBER_POD_FIELDS, ZOOKEEPER_BACKUP, ZOOKEEPER_WORKLOAD, type ControllerIdentity } from '@zk-oam/apis';
import { coreResources, keepFields, namespacedResource, type ResourceType, type StatusTarget } from '@zk-oam/runtime';

/** Its names, one per role (apis' ControllerIdentity says what each is for, and why none may change). */
export const IDENTITY: ControllerIdentity = controllerIdentity('backup');

export const backupResource: ResourceType = namespacedResource(ZOOKEEPER_BACKUP);
export const workloadResource: ResourceType = namespacedResource(ZOOKEEPER_WORKLOAD);

export const BACKUP_STATUS: StatusTarget<typeof backupStatusSchema> = { resource: backupResource, schema: backupStatusSchema, fieldManager: IDENTITY.fieldManager };

/** The workload's member pods: where the dump's session goes. */
export const watchedResources = { pod: coreResources.pod } as const satisfies Record<string, ResourceType>;

/** What the pod informer keeps: the IP and readiness it reads, within what every controller keeps of a member pod; never the spec. */
export const CACHED_FIELDS = {
  pod: keepFields(MEMBER_POD_FIELDS),
} as const;
