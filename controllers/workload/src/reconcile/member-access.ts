// How the observer reaches a workload's members: the plain client port, or TLS on the secure port for a TLS-only
// ensemble, trusting the CA the controller keeps and checking each member's DNS name in its certificate.
import { memberReach, type ZookeeperWorkload } from '@zk-oam/apis';
import type { MemberAccess } from '@zk-oam/zookeeper';
import { workloadNames } from '../render/identity.js';
import type { TlsState } from './tls-certificates.js';

export function memberAccess(workload: ZookeeperWorkload, tls: TlsState | undefined): Promise<MemberAccess> {
  const { workload: name, namespace } = workloadNames(workload);
  // The CA is the one this controller keeps: already in hand, not read again.
  const kept = (): Promise<string> =>
    tls === undefined ? Promise.reject(new Error(`ZookeeperWorkload ${name} has a secure client port but no certificates were kept`)) : Promise.resolve(tls.caPem);
  return memberReach(name, namespace, workload.spec.tls, kept);
}
