// The workload's rendered objects, applied directly (no controller), run a real ensemble on the bed: the quorum forms
// through start.sh, pods turn Ready through ready.sh, data survives deleting every pod at once, and a member added by
// raising the StatefulSet joins as a non-voting member.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { AppsV1Api, CoreV1Api, CustomObjectsApi, PatchStrategy, PolicyV1Api, setHeaderOptions, type V1Pod } from '@kubernetes/client-node';
import { parseResource, ZOOKEEPER_PORTS, ZOOKEEPER_WORKLOAD, type ZookeeperWorkload, zookeeperWorkloadSchema, type ZookeeperWorkloadSpecInput } from '@zk-oam/apis';
import { buildSuperuserSecret, renderWorkload, selectorLabels } from '@zk-oam/workload';
import { fourLetterWord, parseMntr, parseSrvr, voters, ZooKeeperAdmin } from '@zk-oam/zookeeper';
import ZooKeeper from 'zookeeper';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { podReady } from '../src/pod-ready.js';
import { waitForValue } from '../src/wait-for.js';
import { workerBed } from '../src/worker-bed.js';
import { PooledKubeConfig } from '@zk-oam/runtime';

const bed = workerBed();
const kubeConfig = new PooledKubeConfig();
kubeConfig.loadFromFile(bed.kubeconfig);
const core = kubeConfig.makeApiClient(CoreV1Api);
const apps = kubeConfig.makeApiClient(AppsV1Api);
const policy = kubeConfig.makeApiClient(PolicyV1Api);
const customObjects = kubeConfig.makeApiClient(CustomObjectsApi);

const namespace = `render-${Date.now().toString(36)}`;
const name = 'zk';
const password = 'render-test-superuser';
const spec: ZookeeperWorkloadSpecInput = {
  replicas: 3,
  resources: { requests: { cpu: '100m', memory: '256Mi' }, limits: { memory: '256Mi' } },
  storage: { size: '64Mi', storageClassName: 'bed-local', reclaimPolicy: 'Delete' },
};

async function kubectl(args: readonly string[]): Promise<void> {
  const child = spawn(join(bed.binDir, 'kubectl'), ['--kubeconfig', bed.kubeconfig, ...args], { stdio: ['ignore', 'ignore', 'pipe'], timeout: 60_000 });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const [code] = await once(child, 'close');
  if (code !== 0) throw new Error(`kubectl ${args.join(' ')} exited with ${String(code)}: ${stderr}`);
}

/** The ensemble's pods once `count` of them are Ready (and none is terminating), by name. */
async function readyPods(count: number): Promise<Map<string, V1Pod>> {
  const labelSelector = Object.entries(selectorLabels(workload)).map(([key, value]) => `${key}=${value}`).join(',');
  return waitForValue(
    `${count} ready ZooKeeper pods in ${namespace}`,
    async () => {
      const pods = (await core.listNamespacedPod({ namespace, labelSelector })).items;
      const ready = pods.filter((pod) => podReady(pod) && pod.metadata?.deletionTimestamp === undefined);
      return ready.length === count ? new Map(ready.map((pod) => [pod.metadata?.name ?? '', pod])) : undefined;
    },
    420_000,
  );
}

const podIP = (pod: V1Pod | undefined): string => pod?.status?.podIP ?? '';

async function modes(pods: Iterable<V1Pod>): Promise<string[]> {
  const answers = await Promise.all([...pods].map((pod) => fourLetterWord(podIP(pod), ZOOKEEPER_PORTS.client, 'srvr')));
  return answers.map((answer) => parseSrvr(answer).mode).sort();
}

async function withAdmin<T>(pods: Iterable<V1Pod>, use: (admin: ZooKeeperAdmin) => Promise<T>): Promise<T> {
  const connectString = [...pods].map((pod) => `${podIP(pod)}:${ZOOKEEPER_PORTS.client}`).join(',');
  const admin = await ZooKeeperAdmin.connect({ connectString, superPassword: password });
  try {
    return await use(admin);
  } finally {
    admin.close();
  }
}

async function readZnode(pods: Iterable<V1Pod>, path: string): Promise<string> {
  const zk = new ZooKeeper({ connect: [...pods].map((pod) => `${podIP(pod)}:${ZOOKEEPER_PORTS.client}`).join(','), timeout: 10_000, debug_level: 0, host_order_deterministic: false });
  const connected = new Promise<void>((resolve) => zk.once('connect', () => resolve()));
  zk.init({});
  await connected;
  try {
    const [, data] = await zk.get(path, false);
    return String(data);
  } finally {
    zk.close();
  }
}

let workload: ZookeeperWorkload;

beforeAll(async () => {
  await core.createNamespace({ body: { metadata: { name: namespace } } });
  await kubectl(['apply', '--server-side', '--field-manager=zk-oam-render-test', '-f', join(import.meta.dirname, '../../deploy/crds/workload.zookeeper.zkoam.dev_zookeeperworkloads.yaml')]);
  const target = { group: ZOOKEEPER_WORKLOAD.group, version: ZOOKEEPER_WORKLOAD.version, namespace, plural: ZOOKEEPER_WORKLOAD.plural };
  const body = { apiVersion: ZOOKEEPER_WORKLOAD.apiVersion, kind: ZOOKEEPER_WORKLOAD.kind, metadata: { name, namespace }, spec };
  const created: unknown = await waitForValue('the ZookeeperWorkload CRD to serve', () => customObjects.createNamespacedCustomObject({ ...target, body }), 60_000);
  workload = parseResource(zookeeperWorkloadSchema, created, `ZookeeperWorkload ${namespace}/${name}`);
  const rendered = renderWorkload({ workload, replicas: 3, initialMembers: 3, quorumTls: 'Plain', updateStrategy: 'RollingUpdate', monitoringCrdsPresent: false, certificateFingerprint: undefined, trustBundleHash: undefined, saslRevision: undefined, clientCaDigest: undefined, clientsAdmitted: true });
  await core.createNamespacedSecret({ namespace, body: buildSuperuserSecret(workload, password) });
  await core.createNamespacedConfigMap({ namespace, body: rendered.configMap });
  await core.createNamespacedService({ namespace, body: rendered.headlessService });
  await core.createNamespacedService({ namespace, body: rendered.clientService });
  await policy.createNamespacedPodDisruptionBudget({ namespace, body: rendered.podDisruptionBudget });
  await apps.createNamespacedStatefulSet({ namespace, body: rendered.statefulSet });
});

afterAll(async () => {
  await core.deleteNamespace({ name: namespace }).catch((error: unknown) => console.error(`deleting namespace ${namespace} failed`, error));
  await waitForValue(`namespace ${namespace} to be gone`, async () => ((await core.listNamespace()).items.some((ns) => ns.metadata?.name === namespace) ? undefined : true), 300_000);
});

describe('the rendered workload on the test bed', () => {
  it('forms a quorum of one leader and two followers whose pods turn Ready through ready.sh', async () => {
    const pods = await readyPods(3);

    expect(await modes(pods.values())).toEqual(['follower', 'follower', 'leader']);
  });

  it('comes back with its data after every pod is deleted at once', async () => {
    const before = await readyPods(3);
    await withAdmin(before.values(), (admin) => admin.ensureZnode('/written-before-restart', 'kept'));
    const oldUids = new Set([...before.values()].map((pod) => pod.metadata?.uid));

    await core.deleteCollectionNamespacedPod({ namespace, labelSelector: Object.entries(selectorLabels(workload)).map(([k, v]) => `${k}=${v}`).join(',') });

    const after = await waitForValue(
      'three new ready pods',
      async () => {
        const pods = await readyPods(3);
        return [...pods.values()].every((pod) => !oldUids.has(pod.metadata?.uid)) ? pods : undefined;
      },
      420_000,
    );
    expect(await modes(after.values())).toEqual(['follower', 'follower', 'leader']);
    expect(await readZnode(after.values(), '/written-before-restart')).toBe('kept');
  });

  it('starts a fourth member as a non-voting follower when the StatefulSet is raised to 4', async () => {
    const three = await readyPods(3);

    await apps.patchNamespacedStatefulSetScale(
      { namespace, name, body: { spec: { replicas: 4 } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );

    const four = await readyPods(4);
    const newcomer = four.get(`${name}-3`);
    expect(parseSrvr(await fourLetterWord(podIP(newcomer), ZOOKEEPER_PORTS.client, 'srvr')).mode).toBe('follower');
    const committed = await withAdmin(three.values(), async (admin) => {
      await admin.sync();
      return admin.getConfig();
    });
    expect(voters(committed).map((server) => server.id)).toEqual([1, 2, 3]);
    const leader = await waitForValue(
      'the leader to count one synced non-voting follower',
      async () => {
        for (const pod of three.values()) {
          const mntr = parseMntr(await fourLetterWord(podIP(pod), ZOOKEEPER_PORTS.client, 'mntr'));
          if (mntr.serverState === 'leader' && mntr.syncedNonVotingFollowers === 1) return mntr;
        }
        return undefined;
      },
      60_000,
      2_000,
    );
    // ZooKeeper counts the non-voting follower among its synced followers as well.
    expect({ synced: leader.syncedFollowers, nonVoting: leader.syncedNonVotingFollowers }).toEqual({ synced: 3, nonVoting: 1 });
  });
});
