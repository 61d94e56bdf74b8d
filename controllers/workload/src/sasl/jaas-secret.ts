// What spec.authentication.sasl renders into a member: the JAAS Secret and its mount (the provider: render/zoo-cfg.ts).
// Pure.
import type { V1Secret } from '@kubernetes/client-node';
import { SASL_SECRET_KEYS, type ZookeeperWorkload, type ZookeeperWorkloadSpec } from '@zk-oam/apis';
import { childMetadata, workloadNames } from '../render/identity.js';
import { jaasServerSection, type SaslUser } from './users.js';

/** The JAAS Secret is mounted here; start.sh learns the path from ZK_SASL_DIR and hands the file to the JVM. */
export const SASL_MOUNT_PATH = '/zk-oam/sasl';

/** Where start.sh finds the JAAS file; unset when the workload has no SASL users. */
export const SASL_DIR_ENV = 'ZK_SASL_DIR';


export function usesSasl(spec: Pick<ZookeeperWorkloadSpec, 'authentication'>): boolean {
  return spec.authentication?.sasl !== undefined;
}

/** The Secret `<name>-sasl`: the members' JAAS file with every user's password; only ever mounted, never in a ConfigMap. */
export function buildSaslSecret(workload: ZookeeperWorkload, users: readonly SaslUser[]): V1Secret & { metadata: { name: string }; data: Record<string, string> } {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: childMetadata(workload, workloadNames(workload).saslSecret),
    type: 'Opaque',
    data: { [SASL_SECRET_KEYS.jaas]: Buffer.from(jaasServerSection(users), 'utf8').toString('base64') },
  };
}
