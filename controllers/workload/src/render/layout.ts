// Where things are inside a ZooKeeper pod: ports, mount paths, ConfigMap file names, DNS domain of the members.
import type { ZookeeperWorkload } from '@zk-oam/apis';
import { workloadNames } from './identity.js';

export const PORTS = { client: 2181, quorum: 2888, election: 3888 } as const;

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

/** Placeholders in the rendered zoo.cfg that start.sh replaces: values known only inside the pod. */
export const ZOO_CFG_PLACEHOLDERS = { dataDir: '@DATA_DIR@', podIP: '@POD_IP@' } as const;

export const CLUSTER_DOMAIN = 'cluster.local';

/** `<headless service>.<namespace>.svc.cluster.local`: member `i` is `<name>-<i>.` followed by this. */
export function memberDomain(workload: ZookeeperWorkload): string {
  const names = workloadNames(workload);
  return `${names.headlessService}.${names.namespace}.svc.${CLUSTER_DOMAIN}`;
}

export function memberHost(workload: ZookeeperWorkload, ordinal: number): string {
  return `${workloadNames(workload).statefulSet}-${ordinal}.${memberDomain(workload)}`;
}
