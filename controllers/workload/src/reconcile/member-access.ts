// How the observer reaches a workload's members: the plain client port, or TLS on the secure port for a TLS-only
// ensemble, trusting the CA the controller keeps and checking each member's DNS name in its certificate.
import { fourLetterWordEndpoint, memberServerName, type ZookeeperWorkload } from '@zk-oam/apis';
import type { MemberAccess } from '@zk-oam/zookeeper';
import { workloadNames } from '../render/identity.js';
import type { TlsState } from './tls-certificates.js';

export function memberAccess(workload: ZookeeperWorkload, tls: TlsState | undefined): MemberAccess {
  const endpoint = fourLetterWordEndpoint(workload.spec.tls);
  if (!endpoint.secure) return { port: endpoint.port, tls: undefined };
  if (tls === undefined) throw new Error(`ZookeeperWorkload ${workload.metadata.name} has a secure client port but no certificates were kept`);
  const { workload: name, namespace } = workloadNames(workload);
  return { port: endpoint.port, tls: { ca: tls.caPem, serverName: memberServerName(name, namespace) } };
}
