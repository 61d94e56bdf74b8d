// The API resources the workload controller reads and writes, as the runtime's ResourceType values.
import { CERT_MANAGER_GROUP, ZOOKEEPER_WORKLOAD } from '@zk-oam/apis';
import { coreResources, type ResourceType } from '@zk-oam/runtime';

export const workloadResource: ResourceType = {
  group: ZOOKEEPER_WORKLOAD.group,
  version: ZOOKEEPER_WORKLOAD.version,
  plural: ZOOKEEPER_WORKLOAD.plural,
  kind: ZOOKEEPER_WORKLOAD.kind,
  namespaced: true,
};

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
