// The membership the first bootstrap uses: members 0..n-1 as voting participants, addressed by their stable pod names.
import { hasPlainClientPort, myidOfOrdinal, ZOOKEEPER_PORTS, type ZookeeperWorkload } from '@zk-oam/apis';
import { formatDynamicConfig, type ServerEntry } from '@zk-oam/zookeeper';
import { memberHost } from './layout.js';

/** Server entry of the member with this StatefulSet ordinal; the plain client port (if any) binds its own address. */
export function memberServerEntry(workload: ZookeeperWorkload, ordinal: number, role: ServerEntry['role']): ServerEntry {
  const host = memberHost(workload, ordinal);
  return {
    id: myidOfOrdinal(ordinal),
    host,
    quorumPort: ZOOKEEPER_PORTS.quorum,
    electionPort: ZOOKEEPER_PORTS.election,
    role,
    ...(hasPlainClientPort(workload.spec.tls)
      ? { clientAddress: host, clientPort: ZOOKEEPER_PORTS.client }
      : { clientAddress: undefined, clientPort: undefined }),
  };
}

/** Without a version line: ZooKeeper versions the configuration when the first quorum commits it. */
export function buildInitialDynamicConfig(workload: ZookeeperWorkload, members: number): string {
  const servers = Array.from({ length: members }, (_, ordinal) => memberServerEntry(workload, ordinal, 'participant'));
  return formatDynamicConfig({ servers, version: undefined });
}
