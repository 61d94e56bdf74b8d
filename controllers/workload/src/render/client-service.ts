// Service `<name>-client`: where ZooKeeper clients connect; only ready members (in the quorum) receive traffic. Until a
// restore is done it has no selector, so no endpoints: no client reaches a half-restored tree (../restore/gate.ts).
import type { V1Service } from '@kubernetes/client-node';
import type { ZookeeperWorkload } from '@zk-oam/apis';
import { clientServicePorts } from '../tls/member-config.js';
import { childMetadata, selectorLabels, workloadNames } from './identity.js';

export function buildClientService(workload: ZookeeperWorkload, clientsAdmitted: boolean): V1Service {
  const { clientService } = workload.spec;
  const metadata = childMetadata(workload, workloadNames(workload).clientService);
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: clientService.annotations === undefined ? metadata : { ...metadata, annotations: clientService.annotations },
    spec: {
      type: clientService.type,
      ...(clientsAdmitted ? { selector: selectorLabels(workload) } : {}),
      ports: clientServicePorts(workload.spec.tls, clientService.port),
    },
  };
}
