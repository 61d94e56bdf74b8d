// The bed's pod network, as a cluster's: each pod in a network namespace of its own with an address from the pod range,
// Services with endpoints that follow their pods, ClusterIPs answered through kube-proxy, and names resolved by cluster
// DNS, inside a pod as a client application resolves them. On a plain three-member ZooKeeper StatefulSet (no operator).
import { ZOOKEEPER_PORTS } from '@zk-oam/apis';
import { AppsV1Api, CoreV1Api, DiscoveryV1Api, type V1Pod } from '@kubernetes/client-node';
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { readdir, readFile, readlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { srvrThroughService } from '../src/service-srvr.js';
import { podReady } from '../src/pod-ready.js';
import { waitForValue } from '../src/wait-for.js';
import { ensembleName, ensembleObjects, headlessServiceName } from '../src/agent/fixtures/zookeeper-ensemble.js';
import { sandboxName } from '../src/agent/pod-network.js';
import { podDirEnvName } from '../src/agent/pid-registry.js';
import { resolveThrough } from '../src/bed/cluster-dns.js';
import { Runc } from '../src/containers/runc.js';
import { workerBed } from '../src/worker-bed.js';
import { PooledKubeConfig } from '@zk-oam/runtime';

const run = promisify(execFile);
const bed = workerBed();
const kubeConfig = new PooledKubeConfig();
kubeConfig.loadFromFile(bed.kubeconfig);
const core = kubeConfig.makeApiClient(CoreV1Api);
const apps = kubeConfig.makeApiClient(AppsV1Api);
const discovery = kubeConfig.makeApiClient(DiscoveryV1Api);
const namespace = `net-${Math.random().toString(36).slice(2, 7)}`;
const clientService = 'zk-client';
const runc = new Runc(join(bed.dir, 'agent', 'runc'));
const scratch = mkdtempSync(join(tmpdir(), 'zkoam-net-'));

/** Whether `ip` (dotted) is inside `cidr` (a.b.c.d/n). */
function inRange(ip: string, cidr: string): boolean {
  const [base = '', bits = '32'] = cidr.split('/');
  const toNumber = (address: string): number => address.split('.').reduce((value, octet) => value * 256 + Number(octet), 0);
  const size = 2 ** (32 - Number(bits));
  return Math.floor(toNumber(ip) / size) === Math.floor(toNumber(base) / size);
}

async function readyPods(): Promise<V1Pod[]> {
  return waitForValue(
    `3 ready members in ${namespace}`,
    async () => {
      const pods = (await core.listNamespacedPod({ namespace, labelSelector: `app=${ensembleName}` })).items;
      const ready = pods.filter((pod) => podReady(pod) && pod.metadata?.deletionTimestamp === undefined);
      return ready.length === 3 ? ready.sort((a, b) => (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? '')) : undefined;
    },
    300_000,
  );
}

/** The ready addresses the Service's EndpointSlices list. */
async function endpointAddresses(service: string): Promise<string[]> {
  const { items } = await discovery.listNamespacedEndpointSlice({ namespace, labelSelector: `kubernetes.io/service-name=${service}` });
  return items.flatMap((slice) => (slice.endpoints ?? []).filter((endpoint) => endpoint.conditions?.ready === true).flatMap((endpoint) => endpoint.addresses)).sort();
}

/** Runs `command` in the pod's container, as `kubectl exec` would: its output, and its exit code. */
async function execIn(pod: string, command: string): Promise<{ exitCode: number | null; output: string }> {
  const container = (await runc.list()).find((listed) => listed.id.startsWith(`${namespace}_${pod}_`) && listed.status === 'running');
  if (container === undefined) throw new Error(`no running container for ${namespace}/${pod}`);
  return runc.exec(container.id, ['/bin/bash', '-c', command], join(scratch, `${pod}-exec.pid`), 20_000);
}

/** Every process of the bed's pods (the agent marks each container with its pod's directory), with its namespaces. */
async function podProcesses(): Promise<{ pid: string; podDir: string; mount: string; network: string }[]> {
  const marker = `${podDirEnvName}=${join(bed.dir, 'agent', 'pods')}/`;
  const found = [];
  for (const pid of (await readdir('/proc')).filter((entry) => /^\d+$/.test(entry))) {
    try {
      const variable = (await readFile(`/proc/${pid}/environ`, 'utf8')).split('\0').find((entry) => entry.startsWith(marker));
      if (variable === undefined) continue;
      const [mount, network] = await Promise.all([readlink(`/proc/${pid}/ns/mnt`), readlink(`/proc/${pid}/ns/net`)]);
      found.push({ pid, podDir: variable.slice(variable.indexOf('=') + 1), mount, network });
    } catch {
      // The process ended while it was read.
    }
  }
  return found;
}

const ips = (pods: readonly V1Pod[]): string[] => pods.map((pod) => pod.status?.podIP ?? '').sort();

beforeAll(async () => {
  await core.createNamespace({ body: { metadata: { name: namespace } } });
  const { configMap, service, statefulSet } = ensembleObjects(namespace, 3);
  await core.createNamespacedConfigMap({ namespace, body: configMap });
  await core.createNamespacedService({ namespace, body: service });
  await core.createNamespacedService({
    namespace,
    body: { metadata: { name: clientService }, spec: { selector: { app: ensembleName }, ports: [{ name: 'client', port: ZOOKEEPER_PORTS.client }] } },
  });
  await apps.createNamespacedStatefulSet({ namespace, body: statefulSet });
});

afterAll(async () => {
  await core.deleteNamespace({ name: namespace }).catch(() => undefined);
});

describe('the bed’s pod network', () => {
  it('gives each pod an address of its own from the pod range, on the eth0 of its own network namespace', async () => {
    const pods = await readyPods();
    expect(new Set(ips(pods)).size).toBe(3);
    for (const pod of pods) {
      const ip = pod.status?.podIP ?? '';
      expect(inRange(ip, bed.network.podCidr), `${ip} in ${bed.network.podCidr}`).toBe(true);
      expect(pod.status?.hostIP).toBe(bed.network.nodeAddress);
      const { stdout } = await run('ip', ['-n', sandboxName(bed.network, pod.metadata?.uid ?? ''), '-4', '-o', 'addr', 'show', 'eth0']);
      expect(stdout).toContain(` ${ip}/`);
    }
  });

  it('lists the ready members in the client Service’s EndpointSlices, and answers on its ClusterIP through kube-proxy', async () => {
    const pods = await readyPods();
    await waitForValue('the client Service’s endpoints to be the members', async () => ((await endpointAddresses(clientService)).join() === ips(pods).join() ? true : undefined), 60_000);
    const clusterIP = (await core.readNamespacedService({ namespace, name: clientService })).spec?.clusterIP ?? '';
    expect(inRange(clusterIP, bed.network.serviceCidr)).toBe(true);
    const { mode } = await srvrThroughService(clusterIP);
    expect(['leader', 'follower']).toContain(mode);
  });

  it('resolves Services and members by name inside a member, reaches the client Service by its name and the API by its Service', async () => {
    const pods = await readyPods();
    const clusterIP = (await core.readNamespacedService({ namespace, name: clientService })).spec?.clusterIP ?? '';
    const service = await execIn('zk-0', `getent hosts ${clientService}`);
    expect(service.output).toMatch(new RegExp(`^${clusterIP.replaceAll('.', '\\.')}\\s+${clientService}\\.${namespace}\\.svc\\.cluster\\.local`));
    const peer = await execIn('zk-0', `getent hosts zk-1.${headlessServiceName}`);
    expect(peer.output.split(/\s+/)[0]).toBe(pods[1]?.status?.podIP);
    const srvr = await execIn('zk-0', `exec 3<>/dev/tcp/${clientService}/${String(ZOOKEEPER_PORTS.client)} && printf srvr >&3 && timeout 3 cat <&3`);
    expect(srvr.output).toMatch(/^Mode: (leader|follower)$/m);
    const api = await execIn('zk-0', 'exec 3<>"/dev/tcp/$KUBERNETES_SERVICE_HOST/$KUBERNETES_SERVICE_PORT" && echo connected');
    expect(api.output).toBe('connected');
    const env = await execIn('zk-0', 'echo "$KUBERNETES_SERVICE_HOST:$KUBERNETES_SERVICE_PORT"');
    expect(env.output).toBe(`${bed.network.apiServiceIp}:443`);
  });

  it('runs every process of every running pod in a container: a mount and a network namespace that are not the bed’s', async () => {
    await readyPods();
    const running = (await core.listPodForAllNamespaces({ fieldSelector: 'status.phase=Running' })).items.filter((pod) => podReady(pod) && pod.metadata?.deletionTimestamp === undefined);
    expect(running.map((pod) => pod.metadata?.namespace)).toContain('kube-system');
    const processes = await podProcesses();
    const [ownMount, ownNetwork] = await Promise.all([readlink('/proc/self/ns/mnt'), readlink('/proc/self/ns/net')]);
    for (const pod of running) {
      const podDir = join(bed.dir, 'agent', 'pods', `${pod.metadata?.namespace ?? ''}_${pod.metadata?.name ?? ''}`);
      expect(processes.filter((process) => process.podDir === podDir).length, `processes of ${podDir}`).toBeGreaterThan(0);
    }
    expect(processes.filter((process) => process.mount === ownMount || process.network === ownNetwork)).toEqual([]);
  });

  it('follows a replaced member: its EndpointSlice entry and its DNS name move to the new pod’s address', async () => {
    const before = await readyPods();
    const old = before.find((pod) => pod.metadata?.name === 'zk-2');
    await core.deleteNamespacedPod({ namespace, name: 'zk-2' });
    const after = await waitForValue(
      'zk-2 replaced and ready',
      async () => {
        const pods = await readyPods();
        return pods.some((pod) => pod.metadata?.name === 'zk-2' && pod.metadata.uid !== old?.metadata?.uid) ? pods : undefined;
      },
      300_000,
    );
    const replaced = after.find((pod) => pod.metadata?.name === 'zk-2')?.status?.podIP ?? '';
    await waitForValue('the client Service’s endpoints to follow', async () => ((await endpointAddresses(clientService)).join() === ips(after).join() ? true : undefined), 60_000);
    const name = `zk-2.${headlessServiceName}.${namespace}.svc.cluster.local`;
    await waitForValue(`${name} to resolve to ${replaced}`, async () => ((await resolveThrough(bed.network.dnsServiceIp, name)).join() === replaced ? true : undefined), 30_000);
  });
});
