// The bed node agent: registers Nodes, provisions bed-local volumes and runs the pods bound to its nodes.
import { CoreV1Api, type KubeConfig } from '@kubernetes/client-node';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { ImageBundles } from '../containers/image-bundles.js';
import { removeLeftoverContainers } from '../containers/leftovers.js';
import { Runc } from '../containers/runc.js';
import type { ImageStore } from '../images/image-store.js';
import { NodeImages, type JvmArchives } from './node-images.js';
import { PodNetworks, type NodeNetwork } from './pod-network.js';
import { nodeAllocatable } from './node-objects.js';
import { runNodeHeartbeats } from './nodes.js';
import { PidRegistry } from './pid-registry.js';
import { PodFleet } from './pod-fleet.js';
import { runProvisioner } from './provisioner.js';
import { apiVolumeSources } from './volume-sources.js';

export interface AgentConfig {
  kubeConfig: KubeConfig;
  /** The agent's directory: pids/, pods/<ns>_<name>/, volumes/<pvc-uid>/, runc/, containers/, cni/ live here. */
  dir: string;
  nodeNames: readonly string[];
  /** Where the nodes pull every image from (the bed's registry), the archives the bed made for some, and the store they are kept and unpacked in. */
  images: NodeImageSource;
  store: ImageStore;
  /** The nodes' network (the bed's, bed-network.ts), its pod range and CNI plugins, and the Services every pod uses. */
  network: AgentNetwork;
  log: Logger;
}

export interface AgentNetwork extends Omit<NodeNetwork, 'ipamDir'> {
  /** The `kubernetes` Service's ClusterIP: every container's KUBERNETES_SERVICE_HOST. */
  readonly apiServiceIp: string;
  /** The `kube-dns` Service's ClusterIP: every pod's nameserver. */
  readonly dnsServiceIp: string;
}

export interface NodeImageSource {
  /** host:port of the registry that mirrors every upstream one. */
  readonly mirror: string;
  readonly jvmArchives: JvmArchives;
}

export interface Agent {
  /** Stops every container (SIGTERM, then SIGKILL after `graceMs`) and the background loops. */
  stop(graceMs?: number): Promise<void>;
}

export async function startAgent(config: AgentConfig): Promise<Agent> {
  const { dir, log } = config;
  const volumesDir = join(dir, 'volumes');
  const pids = new PidRegistry(join(dir, 'pids'));
  const runtime = { runc: new Runc(join(dir, 'runc')), containersDir: join(dir, 'containers') };
  await Promise.all([mkdir(volumesDir, { recursive: true }), mkdir(join(dir, 'pods'), { recursive: true })]);
  await removeLeftoverContainers(runtime.runc, runtime.containersDir, log);
  const networks = new PodNetworks({ ...config.network, ipamDir: join(dir, 'cni') }, log.child({ part: 'network' }));
  await networks.removeLeftovers();
  await pids.clear();
  const stopping = new AbortController();
  const loops = [
    runNodeHeartbeats(config.kubeConfig, config.nodeNames, config.network.nodeAddress, log.child({ part: 'nodes' }), stopping.signal),
    runProvisioner(config.kubeConfig, volumesDir, log.child({ part: 'provisioner' }), stopping.signal),
  ];
  const fleet = new PodFleet({
    kubeConfig: config.kubeConfig,
    nodeNames: config.nodeNames,
    log: log.child({ part: 'pods' }),
    workerDeps: {
      nodeAllocatable,
      podsDir: join(dir, 'pods'),
      apiServer: { host: config.network.apiServiceIp, port: '443' },
      networks,
      clusterDns: { nameserver: config.network.dnsServiceIp, nodeResolvConf: await readFile('/etc/resolv.conf', 'utf8').catch(() => '') },
      images: new NodeImages(config.images.mirror, config.store, new ImageBundles(config.store), config.images.jvmArchives),
      runtime,
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
