// The API resources the workload controller reads and writes, as the runtime's ResourceType values, and where it writes
// the workload's status.
import { CERT_MANAGER_GROUP, workloadStatusSchema, ZOOKEEPER_WORKLOAD } from '@zk-oam/apis';
import { coreResources, type ResourceType, type StatusTarget } from '@zk-oam/runtime';
import { FIELD_MANAGER } from './markers.js';

export const workloadResource: ResourceType = {
  group: ZOOKEEPER_WORKLOAD.group,
  version: ZOOKEEPER_WORKLOAD.version,
  plural: ZOOKEEPER_WORKLOAD.plural,
  kind: ZOOKEEPER_WORKLOAD.kind,
  namespaced: true,
};

/**
 * The workload's status: server-side apply on /status under this controller's field manager, only when it changed
 * (the kit's writeStatusIfChanged), read back through the API's schema.
 */
export const WORKLOAD_STATUS: StatusTarget<typeof workloadStatusSchema> = { resource: workloadResource, schema: workloadStatusSchema, fieldManager: FIELD_MANAGER };

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
