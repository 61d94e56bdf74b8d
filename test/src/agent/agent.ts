// The bed node agent: registers Nodes, provisions bed-local volumes and runs the pods bound to its nodes.
import { CoreV1Api, type KubeConfig } from '@kubernetes/client-node';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { nodeAllocatable } from './node-objects.js';
import { runNodeHeartbeats } from './nodes.js';
import { PidRegistry } from './pid-registry.js';
import { PodFleet } from './pod-fleet.js';
import { runProvisioner } from './provisioner.js';
import { apiVolumeSources } from './volume-sources.js';

export interface AgentConfig {
  kubeConfig: KubeConfig;
  /** The bed directory: hosts file, pids/, pods/<ns>_<name>/, volumes/<pvc-uid>/ live here. */
  dir: string;
  nodeNames: readonly string[];
  /** Host-specific env values that replace the image's (ZOOKEEPER_CLASSPATH, JAVA_HOME, PATH, ...). */
  envOverrides: Readonly<Record<string, string>>;
  /** Image -> host command, for containers that rely on the image's entrypoint. */
  imageEntrypoints: Readonly<Record<string, readonly string[]>>;
  /** Options for every JVM in a pod (JDK_JAVA_OPTIONS, before the hosts file and the pod's own). */
  jvmOptions: readonly string[];
  log: Logger;
}

export interface Agent {
  /** Stops every container (SIGTERM, then SIGKILL after `graceMs`) and the background loops. */
  stop(graceMs?: number): Promise<void>;
}

export async function startAgent(config: AgentConfig): Promise<Agent> {
  const { dir, log } = config;
  const volumesDir = join(dir, 'volumes');
  const pids = new PidRegistry(join(dir, 'pids'));
  await Promise.all([mkdir(volumesDir, { recursive: true }), mkdir(join(dir, 'pods'), { recursive: true })]);
  await pids.killStale(log);
  const stopping = new AbortController();
  const loops = [
    runNodeHeartbeats(config.kubeConfig, config.nodeNames, log.child({ part: 'nodes' }), stopping.signal),
    runProvisioner(config.kubeConfig, volumesDir, log.child({ part: 'provisioner' }), stopping.signal),
  ];
  const fleet = new PodFleet({
    kubeConfig: config.kubeConfig,
    nodeNames: config.nodeNames,
    hostsFile: join(dir, 'hosts'),
    podIpScope: dir,
    log: log.child({ part: 'pods' }),
    workerDeps: {
      hostIP: '127.0.0.1',
      nodeAllocatable,
      podsDir: join(dir, 'pods'),
      host: { overrides: config.envOverrides, imageEntrypoints: config.imageEntrypoints, hostsFile: join(dir, 'hosts'), jvmOptions: config.jvmOptions },
      pids,
      volumes: apiVolumeSources(config.kubeConfig.makeApiClient(CoreV1Api)),
    },
  });
  await fleet.start();
  log.info({ nodes: config.nodeNames, dir }, 'node agent running');
  return {
    async stop(graceMs = 10_000): Promise<void> {
      log.info('node agent stopping');
      stopping.abort();
      await fleet.stop(graceMs);
      await Promise.all(loops);
      log.info('node agent stopped');
    },
  };
}
