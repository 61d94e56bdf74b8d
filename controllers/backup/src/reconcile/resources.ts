// The names and kinds the backup controller reads and writes. Its names, one per role, keep their values: each is
// remembered outside the process (managed fields, the leader Lease, logs and dashboards).
import { backupStatusSchema, ZOOKEEPER_BACKUP, ZOOKEEPER_WORKLOAD } from '@zk-oam/apis';
import { coreResources, keepFields, namespacedResource, type ResourceType, type StatusTarget } from '@zk-oam/runtime';

/** Its name in logs. */
export const CONTROLLER_NAME = 'zk-oam-backup';

/** Field manager of its writes: the backup's status. */
export const FIELD_MANAGER = 'zk-oam-backup';

/** The Lease its replicas elect their leader by. */
export const LEADER_ELECTION_LEASE = 'zk-oam-backup';

/** The reportingController of its Kubernetes Events. */
export const REPORTING_CONTROLLER = 'zookeeper.zkoam.dev/backup';

export const backupResource: ResourceType = namespacedResource(ZOOKEEPER_BACKUP);
export const workloadResource: ResourceType = namespacedResource(ZOOKEEPER_WORKLOAD);

export const BACKUP_STATUS: StatusTarget<typeof backupStatusSchema> = { resource: backupResource, schema: backupStatusSchema, fieldManager: FIELD_MANAGER };

/** The workload's member pods: where the dump's session goes. */
export const watchedResources = { pod: coreResources.pod } as const satisfies Record<string, ResourceType>;

/** What the pod informer keeps: the IP and readiness; never the spec. */
export const CACHED_FIELDS = {
  pod: keepFields({ paths: [['status', 'podIP'], ['status', 'conditions']] }),
} as const;
