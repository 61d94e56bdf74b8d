// Secret `<name>-superuser`: the superuser password (for the operator's admin client) and its digest (for the servers).
import type { V1Secret } from '@kubernetes/client-node';
import { SUPERUSER_SECRET_KEYS, type ZookeeperWorkload } from '@zk-oam/apis';
import { superDigest } from '@zk-oam/zookeeper';
import { childMetadata, workloadNames } from './identity.js';

/** The reconcile generates the password once (never rotated silently) and passes it in. */
export function buildSuperuserSecret(workload: ZookeeperWorkload, password: string): V1Secret {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: childMetadata(workload, workloadNames(workload).superuserSecret),
    type: 'Opaque',
    stringData: {
      [SUPERUSER_SECRET_KEYS.password]: password,
      [SUPERUSER_SECRET_KEYS.digest]: superDigest(password),
    },
  };
}
