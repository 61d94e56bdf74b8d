// A bed's network: its nodes share one network namespace (`bed<i>`), joined to the bed's own namespace by a veth pair,
// with a pod range and a Service range routed to it. The bed's namespace is the one scripts/bed-network.sh made, never
// the machine's: its routes and addresses go when the test command ends. Each bed on a machine claims an index `i`
// (by creating its node namespace, which fails when another bed has it), which fixes every address it uses.
import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { promisify } from 'node:util';
import type { Logger } from 'pino';
import { BedSetupError } from './errors.js';
import { NETNS_DIR, sandboxPrefix } from '../agent/pod-network.js';

const run = promisify(execFile);

/** 10.(64+i) and 10.(96+i) stay below 10.128, 172.31.i is a valid octet: at most 31 beds side by side. */
export const MAX_BED_NETWORKS = 31;

export interface BedAddresses {
  readonly index: number;
  /** The network namespace of the bed's nodes, under NETNS_DIR. */
  readonly nodeNamespace: string;
  /** The bed's end of the veth pair, in the bed's namespace; the nodes' end is `eth0` in theirs. */
  readonly hostInterface: string;
  /** The bed's address on the veth pair: the apiserver, NATS and everything else the bed runs answer pods here. */
  readonly hostAddress: string;
  /** The nodes' address (each Node's InternalIP; kube-proxy's health and metrics). */
  readonly nodeAddress: string;
  readonly podCidr: string;
  readonly serviceCidr: string;
  /** The `kubernetes` Service's ClusterIP: the first address of the Service range, as the apiserver picks it. */
  readonly apiServiceIp: string;
  /** The `kube-dns` Service's ClusterIP, as a kubeadm cluster has it (.10). */
  readonly dnsServiceIp: string;
}

export function bedAddresses(index: number): BedAddresses {
  if (!Number.isInteger(index) || index < 1 || index > MAX_BED_NETWORKS) {
    throw new RangeError(`a bed network index is a whole number from 1 to ${String(MAX_BED_NETWORKS)}, not ${String(index)}`);
  }
  const i = String(index);
  return {
    index,
    nodeNamespace: `bed${i}`,
    hostInterface: `bed${i}-host`,
    hostAddress: `172.31.${i}.1`,
    nodeAddress: `172.31.${i}.2`,
    podCidr: `10.${String(64 + index)}.0.0/16`,
    serviceCidr: `10.${String(96 + index)}.0.0/16`,
    apiServiceIp: `10.${String(96 + index)}.0.1`,
    dnsServiceIp: `10.${String(96 + index)}.0.10`,
  };
}

export interface BedNetwork extends BedAddresses {
  /** Removes the node namespace (its veth pair and routes with it) and every pod namespace left in it. */
  release(): Promise<void>;
}

/** True in the namespace scripts/bed-network.sh made (it marks the command it runs). */
export function inBedNetworkNamespace(env: Partial<Record<string, string | undefined>>): boolean {
  return env['ZKOAM_BED_NETWORK'] === '1';
}

export async function createBedNetwork(log: Logger): Promise<BedNetwork> {
  if (!inBedNetworkNamespace(process.env)) {
    throw new BedSetupError(
      'the bed network: a bed adds namespaces, routes and firewall rules, which belong in a network namespace of its own, not the machine’s. Run the command under scripts/bed-network.sh (npm test and npm start do)',
    );
  }
  for (let index = 1; index <= MAX_BED_NETWORKS; index += 1) {
    const addresses = bedAddresses(index);
    if (!(await claimNamespace(addresses.nodeNamespace))) continue;
    const network: BedNetwork = { ...addresses, release: () => releaseNetwork(addresses, log) };
    try {
      await wireNodeNamespace(addresses);
    } catch (error) {
      await network.release();
      throw new BedSetupError(`wiring the bed network ${addresses.nodeNamespace}`, { cause: error });
    }
    log.info({ step: 'network', namespace: addresses.nodeNamespace, podCidr: addresses.podCidr, serviceCidr: addresses.serviceCidr }, 'bed network ready');
    return network;
  }
  throw new BedSetupError(`the bed network: all ${String(MAX_BED_NETWORKS)} bed networks are taken`);
}

/** `ip netns add` fails when the name exists: the claim is atomic among beds of one test command. */
async function claimNamespace(name: string): Promise<boolean> {
  try {
    await ip(['netns', 'add', name]);
    return true;
  } catch {
    return false;
  }
}

async function wireNodeNamespace(a: BedAddresses): Promise<void> {
  const ns = a.nodeNamespace;
  await ip(['link', 'add', a.hostInterface, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', ns]);
  await ip(['addr', 'add', `${a.hostAddress}/30`, 'dev', a.hostInterface]);
  await ip(['link', 'set', a.hostInterface, 'up']);
  await ip(['-n', ns, 'addr', 'add', `${a.nodeAddress}/30`, 'dev', 'eth0']);
  await ip(['-n', ns, 'link', 'set', 'eth0', 'up']);
  await ip(['-n', ns, 'link', 'set', 'lo', 'up']);
  await ip(['-n', ns, 'route', 'add', 'default', 'via', a.hostAddress]);
  // The nodes route between the pods' bridge and the bed, as a node does.
  await run('ip', ['netns', 'exec', ns, 'sysctl', '-qw', 'net.ipv4.ip_forward=1']);
  await ip(['route', 'add', a.podCidr, 'via', a.nodeAddress]);
  await ip(['route', 'add', a.serviceCidr, 'via', a.nodeAddress]);
}

async function releaseNetwork(a: BedAddresses, log: Logger): Promise<void> {
  const pods = readdirSync(NETNS_DIR).filter((name) => name.startsWith(sandboxPrefix(a)));
  for (const name of [...pods, a.nodeNamespace]) {
    await ip(['netns', 'delete', name]).catch((error: unknown) => log.warn({ err: error, namespace: name }, 'removing a network namespace failed'));
  }
}

async function ip(args: readonly string[]): Promise<void> {
  await run('ip', [...args]);
}
