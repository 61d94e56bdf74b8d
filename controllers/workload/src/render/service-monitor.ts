// ServiceMonitor `<name>`: Prometheus scrapes every member's built-in metrics endpoint through the headless Service.
import type { ZookeeperWorkload } from '@zk-oam/apis';
import { METRICS_PORT_NAME } from './headless-service.js';
import { childMetadata, selectorLabels, workloadNames } from './identity.js';
import { MONITORING_API_VERSION, type ServiceMonitor } from './monitoring-types.js';

export function buildServiceMonitor(workload: ZookeeperWorkload): ServiceMonitor {
  const names = workloadNames(workload);
  return {
    apiVersion: MONITORING_API_VERSION,
    kind: 'ServiceMonitor',
    metadata: childMetadata(workload, names.serviceMonitor),
    spec: {
      // Both Services carry these labels; only the headless one has a metrics port, so only it yields targets.
      selector: { matchLabels: selectorLabels(workload) },
      namespaceSelector: { matchNames: [names.namespace] },
      endpoints: [{ port: METRICS_PORT_NAME, path: '/metrics', interval: '30s' }],
    },
  };
}
