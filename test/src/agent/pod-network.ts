// Each pod's network sandbox, as a kubelet asks its runtime for one: a network namespace of its own, wired to the node by
// the CNI `bridge` plugin (the bridge `cni0` in the nodes' namespace, the pod's `eth0` in its own) with an address from
// `host-local`, loopback up, and unprivileged ports from 0 (as containerd 2 sets for a pod with its own network). The
// sandbox lives as long as the pod, across its container's restarts; a pod with hostNetwork gets the node's.
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { V1Pod } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import { z } from 'zod';

const run = promisify(execFile);

/** Where `ip netns` keeps namespaces (a tmpfs of the bed's own, see scripts/bed-network.sh). */
export const NETNS_DIR = '/run/netns';
const CNI_VERSION = '1.1.0';

export interface NodeNetwork {
  /** The nodes' network namespace, under /run/netns. */
  readonly nodeNamespace: string;
  /** The nodes' address: a hostNetwork pod's IP, and every pod's hostIP. */
  readonly nodeAddress: string;
  readonly podCidr: string;
  /** Where the CNI plugins are (bridge, host-local). */
  readonly cniBinDir: string;
  /** host-local's allocations: the agent's own, so that beds side by side never share them. */
  readonly ipamDir: string;
}

export interface PodSandbox {
  /** The network namespace the pod's containers join. */
  readonly namespacePath: string;
  readonly podIP: string;
}

/** The CNI network every pod joins, as a file in /etc/cni/net.d would describe it. Pure. */
export function cniNetworkConfig(network: Pick<NodeNetwork, 'podCidr' | 'ipamDir'>): Record<string, unknown> {
  return {
    cniVersion: CNI_VERSION,
    name: 'bed',
    type: 'bridge',
    bridge: 'cni0',
    isGateway: true,
    // The bed reaches pods by a route to the pod range, and kube-proxy masquerades Service traffic: no NAT of its own.
    ipMasq: false,
    // A pod reaching itself through a Service goes out of its bridge port and back in.
    hairpinMode: true,
    ipam: { type: 'host-local', ranges: [[{ subnet: network.podCidr }]], routes: [{ dst: '0.0.0.0/0' }], dataDir: network.ipamDir },
  };
}

const addResultSchema = z.object({ ips: z.array(z.object({ address: z.string() })).min(1) });

/** The namespace name of a pod's sandbox: the nodes' namespace, then the pod's uid. */
export function sandboxName(network: Pick<NodeNetwork, 'nodeNamespace'>, uid: string): string {
  return `${sandboxPrefix(network)}${uid}`;
}

/** What every sandbox of the nodes' namespace is named from: how leftovers are found. */
export function sandboxPrefix(network: Pick<NodeNetwork, 'nodeNamespace'>): string {
  return `${network.nodeNamespace}-`;
}

export class PodNetworks {
  /** The bridge plugin creates `cni0` on its first run: two first runs side by side could race, so calls go in turn. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly network: NodeNetwork,
    private readonly log: Logger,
  ) {}

  get nodeAddress(): string {
    return this.network.nodeAddress;
  }

  async create(pod: V1Pod): Promise<PodSandbox> {
    if (pod.spec?.hostNetwork === true) {
      return { namespacePath: join(NETNS_DIR, this.network.nodeNamespace), podIP: this.network.nodeAddress };
    }
    const uid = pod.metadata?.uid ?? '';
    const name = sandboxName(this.network, uid);
    return this.inTurn(async () => {
      // A sandbox left by an earlier attempt for this pod: made again from nothing.
      if (existsSync(join(NETNS_DIR, name))) await this.release(uid);
      await run('ip', ['netns', 'add', name]);
      try {
        const result = addResultSchema.parse(JSON.parse(await this.cni('ADD', uid, name)));
        const podIP = (result.ips[0]?.address ?? '').split('/')[0] ?? '';
        await run('ip', ['-n', name, 'link', 'set', 'lo', 'up']);
        await run('ip', ['netns', 'exec', name, 'sysctl', '-qw', 'net.ipv4.ip_unprivileged_port_start=0']);
        this.log.info({ pod: `${pod.metadata?.namespace ?? ''}/${pod.metadata?.name ?? ''}`, sandbox: name, podIP }, 'pod network ready');
        return { namespacePath: join(NETNS_DIR, name), podIP };
      } catch (error) {
        await this.release(uid);
        throw error;
      }
    });
  }

  /** Returns the pod's address to the range and removes its namespace; a pod with hostNetwork has neither. */
  async remove(pod: V1Pod): Promise<void> {
    if (pod.spec?.hostNetwork === true) return;
    await this.inTurn(() => this.release(pod.metadata?.uid ?? ''));
  }

  /** Sandboxes of pods an earlier run of the agent left (their containers are gone): removed, and their addresses freed. */
  async removeLeftovers(): Promise<void> {
    const prefix = sandboxPrefix(this.network);
    const leftovers = (await readdir(NETNS_DIR)).filter((name) => name.startsWith(prefix));
    for (const name of leftovers) {
      await this.release(name.slice(prefix.length));
    }
    await rm(this.network.ipamDir, { recursive: true, force: true });
    if (leftovers.length > 0) this.log.info({ sandboxes: leftovers.length }, 'removed pod networks left by an earlier run');
  }

  private async release(uid: string): Promise<void> {
    await this.cni('DEL', uid, sandboxName(this.network, uid)).catch((error: unknown) =>
      this.log.warn({ err: error, uid }, 'the CNI plugin could not release a pod network; removing its namespace anyway'),
    );
    await this.removeNamespace(uid);
  }

  private async removeNamespace(uid: string): Promise<void> {
    await run('ip', ['netns', 'delete', sandboxName(this.network, uid)]).catch(() => undefined);
  }

  private inTurn<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work);
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** Runs the bridge plugin in the nodes' namespace, as the runtime would; resolves with its stdout. */
  private cni(command: 'ADD' | 'DEL', uid: string, namespace: string): Promise<string> {
    const { cniBinDir, nodeNamespace } = this.network;
    const env = {
      PATH: process.env['PATH'] ?? '/usr/sbin:/usr/bin:/sbin:/bin',
      CNI_COMMAND: command,
      CNI_CONTAINERID: uid,
      CNI_NETNS: join(NETNS_DIR, namespace),
      CNI_IFNAME: 'eth0',
      CNI_PATH: cniBinDir,
    };
    return new Promise((resolve, reject) => {
      const child = spawn('ip', ['netns', 'exec', nodeNamespace, join(cniBinDir, 'bridge')], { env, stdio: ['pipe', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.once('error', reject);
      child.once('close', (code) => {
        if (code === 0) resolve(stdout);
        else reject(new Error(`CNI ${command} for ${namespace} failed (exit ${String(code)}): ${stdout}${stderr}`.trim()));
      });
      child.stdin.end(JSON.stringify(cniNetworkConfig(this.network)));
    });
  }
}
