// What a workload's spec.tls means to this controller. ZooKeeper adds a member by reconfig only with a client address
// in its server line, and a client address opens a plain client port on the member: a workload serving clients over
// TLS only (spec.tls.client Only) is not scaled (not supported yet). With a secure port beside the plain one
// (Alongside), the superuser's session goes over TLS (act.ts).
import { hasPlainClientPort, type ZookeeperWorkload } from '@zk-oam/apis';

/** Why this trait does not scale the workload, or undefined when it may. */
export function tlsOnlyRefusal(workload: ZookeeperWorkload): string | undefined {
  if (hasPlainClientPort(workload.spec.tls)) return undefined;
  return (
    `ZookeeperWorkload ${workload.metadata.name} serves clients over TLS only (spec.tls.client Only); scaling it is not ` +
    'supported yet: ZooKeeper adds a member by reconfig only with a client address in its server line, which would open a ' +
    'plain client port on it'
  );
}
