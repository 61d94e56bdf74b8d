// The whole test bed: its network (bed-network.ts), control plane, NATS with JetStream, the node agent with its Nodes,
// kube-proxy, cluster DNS and the `bed-local` StorageClass. stop() leaves no process behind and says what it had to kill.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino, type Logger } from 'pino';
import { claimBedDir, reapAbandonedBeds, releaseBedDir } from './abandoned.js';
import type { NodeImageSource } from '../agent/agent.js';
import { agentStopGraceMs, startAgent } from './agent.js';
import { bedImages, publishBedImages } from './bed-images.js';
import type { ImageName } from './controller-images.js';
import { createBedNetwork, type BedAddresses, type BedNetwork } from './bed-network.js';
import { createClusterDns, waitForClusterDns } from './cluster-dns.js';
import { writeClusterResolvConf } from './cluster-resolver.js';
import { startKubeProxy } from './kube-proxy.js';
import { supervise, type BedChild } from './supervise.js';
import { resolveNetworkBinaries, type NetworkBinaries } from '../network/binaries.js';
import type { Binaries } from './binaries.js';
import { startControlPlane, type ControlPlane } from './control-plane.js';
import { BedSetupError } from './errors.js';
import { startNats, type NatsServer } from './nats.js';
import { killOnProcessExit, type ManagedProcess } from './process.js';
import { reapProcessesMentioning } from './reap.js';
import { startRegistry, type Registry } from './registry.js';
import { settleAll } from './settle.js';
import { ensureStorageClass } from './storage-class.js';
import { timed } from './timing.js';
import { repoRoot } from './paths.js';
import type { BuildImagesOptions } from '../images/build-images.js';
import { ImageStore } from '../images/image-store.js';
import { bedCacheDir } from '../cache-dir.js';
import { PooledKubeConfig } from '@zk-oam/runtime';

export interface BedInfo {
  /** The bed's state directory (certs, logs, data). */
  dir: string;
  /** Path of an admin kubeconfig (system:masters). */
  kubeconfig: string;
  /** https://127.0.0.1:<port> */
  server: string;
  /** nats://127.0.0.1:<port>, JetStream on. */
  nats: { url: string; user: string; password: string };
  /** Node names run by the node agent. */
  nodes: string[];
  /** Directory holding etcd, kube-apiserver, ..., kubectl. */
  binDir: string;
  /** host:port of the registry the nodes pull every image through (plain HTTP, loopback). */
  registry: string;
  /** A resolv.conf naming the bed's cluster DNS, for programs of the tests that resolve as pods do (cluster-resolver.ts). */
  resolvConf: string;
  /** The bed's addresses: its pod and Service ranges, its own address (pods reach the apiserver and NATS there). */
  network: Omit<BedAddresses, 'index'>;
}

export interface Bed {
  info: BedInfo;
  controlPlane: ControlPlane;
  nats: NatsServer;
  stop(): Promise<void>;
}

export interface BedOptions {
  /** State directory; a fresh one under the OS temp dir when absent, removed again by stop(). */
  dir?: string;
  /** Keep a fresh temp directory after stop() (its logs help when a test failed). */
  keepDir?: boolean;
  log?: Logger;
  binaries?: Binaries;
  /** CNI plugins, kube-proxy and CoreDNS; resolved with resolveNetworkBinaries() when absent. */
  networkBinaries?: NetworkBinaries;
  nodeCount?: number;
  /** kube-controller-manager's request rate to the apiserver; BED_CONTROLLER_MANAGER_API_QPS when absent. */
  controllerManagerApiQps?: number;
  /**
   * The registry the nodes pull from, with the bed's images in it (serveBedImages). When absent, the bed builds (or
   * finds cached) its images and serves them from a registry of its own. Beds started side by side are given one
   * registry served before, since two builds of the same images into one buildah storage would collide.
   */
  images?: NodeImageSource;
  /** Which of our images a bed that builds its own serves: every one when absent. */
  ourImages?: readonly ImageName[];
}

const defaultNodeCount = 5;
const tempDirPrefix = 'zkoam-bed-';
const startTimeoutMs = 120_000;
/**
 * kube-controller-manager's request rate on the bed. With --use-service-account-credentials it creates a ServiceAccount
 * and a token for each of its controllers before starting it, through one client: at its default, 20/s, that took 5 s
 * of every bed start before the first namespace had its default ServiceAccount (and so before any pod could be made).
 */
const BED_CONTROLLER_MANAGER_API_QPS = 100;

export async function startBed(options: BedOptions = {}): Promise<Bed> {
  const baseLog = options.log ?? pino({ name: 'bed' });
  await reapAbandonedBeds(tmpdir(), tempDirPrefix, baseLog);
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), tempDirPrefix));
  mkdirSync(dir, { recursive: true });
  const removeDirOnStop = options.dir === undefined && !options.keepDir;
  const log = baseLog.child({ bed: dir });
  // A reused directory may hold processes of a bed whose owner crashed: they would hold its ports and files.
  for (const leftover of await reapProcessesMentioning(`${dir}/`)) {
    log.warn({ process: leftover }, 'killed a process left from an earlier bed');
  }
  const nodes = Array.from({ length: options.nodeCount ?? defaultNodeCount }, (_, i) => `bed-node-${String(i + 1)}`);
  const started = performance.now();
  log.info({ dir }, 'starting the test bed');
  let controlPlane: ControlPlane | undefined;
  let nats: NatsServer | undefined;
  let agent: ManagedProcess | undefined;
  let registry: Registry | undefined;
  let network: BedNetwork | undefined;
  let kubeProxy: BedChild | undefined;
  const forgetChildren = killOnProcessExit(() => [agent, kubeProxy].filter((child) => child !== undefined));
  const stop = async (): Promise<void> => {
    forgetChildren();
    await agent?.stop(agentStopGraceMs);
    await kubeProxy?.stop();
    await registry?.stop();
    await nats?.stop();
    await controlPlane?.stop();
    await network?.release();
    const reaped = await reapProcessesMentioning(`${dir}/`);
    for (const straggler of reaped) log.warn({ process: straggler }, 'killed a process left behind');
    if (removeDirOnStop) rmSync(dir, { recursive: true, force: true });
    else releaseBedDir(dir);
    log.info({ dir, killedStragglers: reaped.length, removedDir: removeDirOnStop }, 'test bed stopped');
  };
  claimBedDir(dir);
  try {
    const net = await timed(log, 'network', () => createBedNetwork(log));
    network = net;
    const networkBinaries = options.networkBinaries ?? (await resolveNetworkBinaries());
    let images = options.images;
    await settleAll([
      startControlPlane({
        dir,
        log,
        binaries: options.binaries,
        timeoutMs: startTimeoutMs,
        controllerManagerApiQps: options.controllerManagerApiQps ?? BED_CONTROLLER_MANAGER_API_QPS,
        network: net,
      }).then((started) => {
        controlPlane = started;
      }),
      timed(log, 'NATS', () => startNats({ dir: join(dir, 'nats'), host: net.hostAddress, log })).then((started) => {
        nats = started;
      }),
      images
        ? Promise.resolve()
        : timed(log, 'images', async () => {
            const served = await serveBedImages(dir, log, options.ourImages);
            registry = served.registry;
            images = served.images;
          }),
    ]);
    const cp = controlPlane;
    const natsServer = nats;
    if (!cp || !natsServer || !images) throw new BedSetupError('starting the control plane, NATS and the image registry');
    const nodeImages = images;
    const admin = new PooledKubeConfig();
    admin.loadFromFile(cp.kubeconfig);
    await ensureStorageClass(admin).catch((error: unknown) => {
      throw new BedSetupError('creating the bed-local StorageClass', { cause: error });
    });
    await createClusterDns(admin, net).catch((error: unknown) => {
      throw new BedSetupError('creating cluster DNS', { cause: error });
    });
    const proxySpec = { bedDir: dir, binary: networkBinaries.kubeProxy, pki: cp.pki, network: net, apiServerPort: cp.port, nodeName: nodes[0] ?? '', timeoutMs: startTimeoutMs };
    const agentNetwork = { ...net, cniBinDir: networkBinaries.cniBinDir };
    await settleAll([
      timed(log, 'kube-proxy', () => startKubeProxy(proxySpec)).then((started) => {
        kubeProxy = supervise(started, () => startKubeProxy(proxySpec), log);
      }),
      timed(log, `node agent (${String(nodes.length)} Nodes Ready)`, () =>
        startAgent({ bedDir: dir, kubeconfig: cp.kubeconfig, nodes, images: nodeImages, network: agentNetwork, timeoutMs: startTimeoutMs }),
      ).then((started) => {
        agent = started;
      }),
    ]);
    await timed(log, 'cluster DNS', () => waitForClusterDns(admin, net, startTimeoutMs)).catch((error: unknown) => {
      throw new BedSetupError('starting cluster DNS', { cause: error });
    });
    log.info({ seconds: Number(((performance.now() - started) / 1000).toFixed(1)) }, 'test bed ready');
    return {
      info: {
        dir,
        kubeconfig: cp.kubeconfig,
        server: cp.server,
        nats: { url: natsServer.url, user: natsServer.user, password: natsServer.password },
        nodes,
        binDir: cp.binaries.binDir,
        registry: nodeImages.mirror,
        resolvConf: writeClusterResolvConf(dir, net.dnsServiceIp),
        network: addressesOf(net),
      },
      controlPlane: cp,
      nats: natsServer,
      stop,
    };
  } catch (error) {
    log.error({ err: error }, 'test bed failed to start; stopping what did start');
    await stop();
    throw error;
  }
}

/** The bed's addresses as BedInfo carries them (JSON, for tests and `npm start`): no index, no release. */
function addressesOf(network: BedNetwork): BedInfo['network'] {
  const { index: _index, release: _release, ...addresses } = network;
  return addresses;
}

/**
 * Builds (or finds cached) the bed's images (of ours, `ourImages` or every one) and serves them from a registry started in `dir`, its storage shared by
 * every bed and run (<cache>/registry), so that a push sends only the blobs it does not have yet.
 */
export async function serveBedImages(dir: string, log: Logger, ourImages?: readonly ImageName[]): Promise<{ registry: Registry; images: NodeImageSource }> {
  const built = await bedImages({ ...imageOptions(log), ...(ourImages === undefined ? {} : { names: ourImages }) }, log);
  const registry = await startRegistry({ bedDir: dir, storageDir: join(bedCacheDir(process.env), 'registry'), log, timeoutMs: startTimeoutMs });
  try {
    return { registry, images: await publishBedImages(built, registry.host, log) };
  } catch (error) {
    await registry.stop();
    throw error;
  }
}

/** How the bed builds its images: in the bed's cache, with the extra CA this machine's Node trusts (a proxy's). */
export function imageOptions(log: Logger): BuildImagesOptions {
  return {
    repo: repoRoot(),
    store: new ImageStore(bedCacheDir(process.env)),
    extraCaFile: process.env['NODE_EXTRA_CA_CERTS'] || undefined,
    progress: (line) => log.info(line),
  };
}
