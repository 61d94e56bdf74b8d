// Where things are inside a ZooKeeper pod: mount paths, ConfigMap file names, DNS domain of the members.
import { memberDomain as domainOf, memberHost as hostOf, type ZookeeperWorkload } from '@zk-oam/apis';
import { workloadNames } from './identity.js';

/** The ConfigMap (zoo.cfg, initial dynamic config, scripts) is mounted here; scripts find it through ZK_CONFIG_DIR. */
export const CONFIG_MOUNT_PATH = '/zk-oam/config';
/** The member's volume (dataDir, its zoo.cfg and ZooKeeper's versioned dynamic configs); the image's own data path. */
export const DATA_MOUNT_PATH = '/data';

export const CONFIG_FILES = {
  zooCfg: 'zoo.cfg',
  initialDynamicConfig: 'dynamic.initial.cfg',
  start: 'start.sh',
  ready: 'ready.sh',
  alive: 'alive.sh',
} as const;

/** Placeholders in the rendered zoo.cfg that start.sh replaces: values known only inside the pod, and mount paths (env vars). */
export const ZOO_CFG_PLACEHOLDERS = {
  dataDir: '@DATA_DIR@',
  podIP: '@POD_IP@',
  tlsDir: '@TLS_DIR@',
  keyStoreDir: '@KEY_STORE_DIR@',
  clientCaDir: '@CLIENT_CA_DIR@',
} as const;

/** `<headless service>.<namespace>.svc.cluster.local`: member `i` is `<name>-<i>.` followed by this. */
export function memberDomain(workload: ZookeeperWorkload): string {
  return domainOf(workload.metadata.name, workloadNames(workload).namespace);
}

export function memberHost(workload: ZookeeperWorkload, ordinal: number): string {
  return hostOf(workload.metadata.name, workloadNames(workload).namespace, ordinal);
}
