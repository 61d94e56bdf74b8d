// The API resources and names the workload controller reads and writes, the annotations it keeps on what it renders,
// and where it writes the workload's status. The annotations that record a TLS step are with TLS
// (tls/quorum-steps.ts, tls/ca-rotation.ts); the traits' binding annotations, which it reads, are in @zk-oam/apis.
// Its names, one per role, keep their values: each is remembered outside the process (managed fields, the leader
// Lease, logs and dashboards), so a new value would break an upgrade.
import { CERT_MANAGER_GROUP, controllerIdentity, workloadStatusSchema, ZOOKEEPER_WORKLOAD, type ControllerIdentity } from '@zk-oam/apis';
import { coreResources, namespacedResource, type ResourceType, type StatusTarget } from '@zk-oam/runtime';

/** Its names, one per role (apis' ControllerIdentity says what each is for, and why none may change). */
export const IDENTITY: ControllerIdentity = controllerIdentity('workload');

/** On every child: the hash of what was last applied, so an unchanged child is never written again. */
export const APPLIED_HASH_ANNOTATION = 'workload.zookeeper.zkoam.dev/applied-hash';

/** On the StatefulSet: the size of the first configuration ever bootstrapped, fixed for the workload's life. */
export const INITIAL_MEMBERS_ANNOTATION = 'workload.zookeeper.zkoam.dev/initial-members';

export const workloadResource: ResourceType = namespacedResource(ZOOKEEPER_WORKLOAD);

/**
 * The workload's status: server-side apply on /status under this controller's field manager, only when it changed
 * (the kit's writeStatusIfChanged), read back through the API's schema.
 */
export const WORKLOAD_STATUS: StatusTarget<typeof workloadStatusSchema> = { resource: workloadResource, schema: workloadStatusSchema, fieldManager: IDENTITY.fieldManager };

export const podDisruptionBudgetResource: ResourceType = {
  group: 'policy',
  version: 'v1',
  plural: 'poddisruptionbudgets',
  kind: 'PodDisruptionBudget',
  namespaced: true,
};

export const MONITORING_GROUP_VERSION = { group: 'monitoring.coreos.com', version: 'v1' } as const;

export const serviceMonitorResource: ResourceType = {
  ...MONITORING_GROUP_VERSION,
  plural: 'servicemonitors',
  kind: 'ServiceMonitor',
  namespaced: true,
};

export const prometheusRuleResource: ResourceType = {
  ...MONITORING_GROUP_VERSION,
  plural: 'prometheusrules',
  kind: 'PrometheusRule',
  namespaced: true,
};

export const childResources = {
  configMap: coreResources.configMap,
  service: coreResources.service,
  statefulSet: coreResources.statefulSet,
  secret: coreResources.secret,
  pod: coreResources.pod,
  podDisruptionBudget: podDisruptionBudgetResource,
} as const satisfies Record<string, ResourceType>;

export const certificateResource: ResourceType = {
  group: CERT_MANAGER_GROUP,
  version: 'v1',
  plural: 'certificates',
  kind: 'Certificate',
  namespaced: true,
};
