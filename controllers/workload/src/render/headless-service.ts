// Service `<name>-headless`: stable member DNS names, published before the pods are ready so a bootstrap never deadlocks.
import type { V1Service, V1ServicePort } from '@kubernetes/client-node';
import { ZOOKEEPER_PORTS, type ZookeeperWorkload } from '@zk-oam/apis';
import { clientContainerPorts } from '../tls/member-config.js';
import { childMetadata, selectorLabels, workloadNames } from './identity.js';

export const METRICS_PORT_NAME = 'metrics';

export function buildHeadlessService(workload: ZookeeperWorkload): V1Service {
  const ports: V1ServicePort[] = [
    ...clientContainerPorts(workload.spec.tls).map(({ name, containerPort }) => ({ name, port: containerPort, targetPort: containerPort })),
    { name: 'quorum', port: ZOOKEEPER_PORTS.quorum, targetPort: ZOOKEEPER_PORTS.quorum },
    { name: 'election', port: ZOOKEEPER_PORTS.election, targetPort: ZOOKEEPER_PORTS.election },
  ];
  const { metrics } = workload.spec;
  if (metrics.enabled) {
    // The ServiceMonitor scrapes every member through this Service's endpoints.
    ports.push({ name: METRICS_PORT_NAME, port: metrics.port, targetPort: metrics.port });
  }
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: childMetadata(workload, workloadNames(workload).headlessService),
    spec: {
      clusterIP: 'None',
      publishNotReadyAddresses: true,
      selector: selectorLabels(workload),
      ports,
    },
  };
}
