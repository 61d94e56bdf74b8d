// How a tenant reaches its path (pure): the client Service's name and port, the path as chroot, and which port speaks
// TLS. A client that only reads the discovery ConfigMap connects with ZOOKEEPER as it is.
import { clientServiceHost, hasPlainClientPort, ZOOKEEPER_PORTS, type ZookeeperWorkload } from '@zk-oam/apis';

export interface Connection {
  /** `host:port` of the client Service. */
  readonly hosts: string;
  readonly chroot: string;
  /** hosts with the chroot appended: what ZooKeeper clients (and Kafka's zookeeper.connect) take. */
  readonly connectString: string;
  /** The Service's plain client port; absent when the members serve clients over TLS only. */
  readonly clientPort: number | undefined;
  /** The Service's secure client port; absent without client TLS. */
  readonly secureClientPort: number | undefined;
  /** Whether the connect string's port speaks TLS (tls.client Only). */
  readonly tls: boolean;
}

export function connectionOf(workload: ZookeeperWorkload, path: string): Connection {
  const { tls, clientService } = workload.spec;
  const hosts = `${clientServiceHost(workload.metadata.name, workload.metadata.namespace ?? '')}:${String(clientService.port)}`;
  const plain = hasPlainClientPort(tls);
  const secureClientPort = tls.client === 'Disabled' ? undefined : plain ? ZOOKEEPER_PORTS.secureClient : clientService.port;
  return { hosts, chroot: path, connectString: `${hosts}${path}`, clientPort: plain ? clientService.port : undefined, secureClientPort, tls: !plain };
}
