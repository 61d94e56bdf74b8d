// The controllers as a user runs them: installed with `kubectl apply -k` of deploy/<name> in an overlay that points its
// image at the bed's registry, each Deployment's pods run by the node agent as containers of the image pulled from
// there, authenticated by the projected ServiceAccount token. Frozen for 30 s, kube-apiserver takes every leader's
// Lease away; the agent restarts those pods as a kubelet would, and the system then carries out a scale with no
// acknowledged write lost. A deleted pod is replaced and its Lease taken over.
// The console too runs from its image as its Deployment's pod, and answers on the pod IP as each caller: its own
// ServiceAccount, bound to nothing, is refused; beside the workload controller's pods, its stream of an ensemble carries
// that controller's NATS facts.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { memberSelectorOf } from '@zk-oam/apis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bedImageRepository, CONTROLLER_NAMES, imageVersion } from '../src/bed/controller-images.js';
import { manifestDigest } from '../src/images/registry-copy.js';
import { serviceAccountBearerToken } from '../src/bed/index.js';
import { ControllerPods } from '../src/controllers/controller-pods.js';
import { bedWorkloadSpec, CONTROLLER_NAMESPACE, imageNodeArgs, kubectl, waitFor, WorkloadClient } from '../src/controllers/index.js';
import { call, createConsoleRoles, deleteConsoleRoles, serviceAccountToken, SseReader } from './console-support.js';
import { measured } from './scale-measure.js';
import { ensembleTruth, ScaleClient, settledAt, waitScaled } from './scale-support.js';
import { workerBed } from '../src/worker-bed.js';
import { PooledKubeConfig } from '@zk-oam/runtime';

const bed = workerBed();
const controllers = new ControllerPods(bed);
const client = new WorkloadClient(bed);
const traits = new ScaleClient(bed);
const namespace = `controller-pods-${Date.now().toString(36)}`;
const name = 'zk';
const trait = 'zk-size';
const freezeMs = 30_000;

const listPods = async () => (await client.core.listNamespacedPod({ namespace, labelSelector: memberSelectorOf(name) })).items;

async function apiServerPid(): Promise<number> {
  return Number((await readFile(join(bed.dir, 'pids', 'kube-apiserver.pid'), 'utf8')).trim());
}

describe('the controllers as pods of their shipped Deployments', () => {
  beforeAll(async () => {
    await controllers.install(CONTROLLER_NAMES);
    await client.createNamespace(namespace);
  });

  afterAll(async () => {
    await client.deleteNamespace(namespace);
    await controllers.uninstall(CONTROLLER_NAMES);
  });

  it('runs every controller as its image’s entrypoint, pulled from where kustomize images: points, Ready, one replica holding the Lease', async () => {
    for (const controller of CONTROLLER_NAMES) {
      const pods = await controllers.waitReady(controller);
      expect(pods).toHaveLength(2);
      const repository = bedImageRepository(bed, controller);
      const image = `${repository}:${imageVersion()}`;
      const digest = await manifestDigest(image);
      for (const pod of pods) {
        expect([pod.image, pod.imageID]).toStrictEqual([image, `${repository}@${digest}`]);
        const commandLine = await controllers.commandLine(pod.name);
        expect(commandLine).toEqual(['node', ...(await imageNodeArgs()), '/app/main.mjs']);
      }
    }
    await client.create(namespace, name, bedWorkloadSpec({ replicas: 3 }));
    await waitFor('a Ready 3-member ensemble', () => ensembleTruth(listPods), (truth) => settledAt(truth, 3), 300_000, 1_000);
  });

  it('restarts the leaders that lost their Lease to a 30 s kube-apiserver freeze, then scales with no write lost', async () => {
    const leaders = new Map<string, string | undefined>();
    for (const controller of CONTROLLER_NAMES) leaders.set(controller, await controllers.leaseHolder(controller));
    const pid = await apiServerPid();
    process.kill(pid, 'SIGSTOP');
    try {
      await sleep(freezeMs);
    } finally {
      process.kill(pid, 'SIGCONT');
    }
    for (const controller of CONTROLLER_NAMES) {
      const leader = leaders.get(controller);
      const restarted = await waitFor(
        `the ${controller} leader ${leader ?? '?'} restarted by the agent`,
        () => controllers.pods(controller),
        (pods) => (pods.find((pod) => pod.name === leader)?.restarts ?? 0) >= 1,
        120_000,
      );
      expect(restarted.map((pod) => pod.name)).toContain(leader);
      const log = await readFile(restarted.find((pod) => pod.name === leader)?.logFile ?? '', 'utf8');
      expect(log).toContain('leadership lost');
      await controllers.waitReady(controller);
    }

    const manifest = {
      apiVersion: 'scale.zookeeper.zkoam.dev/v1alpha1',
      kind: 'ZookeeperScale',
      metadata: { name: trait, namespace },
      spec: { workloadRef: { name }, replicas: 5 },
    };
    const report = await measured('3 -> 5 after the freeze, controllers as pods', { listPods, trait: () => traits.get(namespace, trait) }, async () => {
      await kubectl(bed, ['apply', '--server-side', '-f', '-'], JSON.stringify(manifest));
      await waitScaled(traits, { namespace, trait, listPods }, 5);
    });
    expect(report.writes.acknowledged).toBeGreaterThan(0);
    expect(report.writes.lost).toEqual([]);
  });

  it('replaces a deleted controller pod, and the other replica takes the Lease', async () => {
    const before = await controllers.waitReady('workload');
    const holder = await controllers.leaseHolder('workload');
    const standby = before.find((pod) => pod.name !== holder)?.name;
    await kubectl(bed, ['delete', 'pod', holder ?? '', '-n', 'zk-oam-system', '--wait=false']);
    const newHolder = await waitFor(
      `the Lease taken over from ${holder ?? '?'}`,
      () => controllers.leaseHolder('workload'),
      (found) => found !== undefined && found !== '' && found !== holder,
      60_000,
      250,
    );
    const after = await controllers.waitReady('workload');
    const names = after.map((pod) => pod.name);
    expect(names).not.toContain(holder);
    expect(names).toContain(standby);
    expect(names).toContain(newHolder);
    console.log(`[controller-pods] Lease of the deleted ${holder ?? '?'} taken by ${newHolder ?? '?'} (${newHolder === standby ? 'the standby replica' : 'its replacement'})`);
  });
});

describe('the console as the pod of its shipped Deployment', () => {
  const admin = new PooledKubeConfig();
  admin.loadFromFile(bed.kubeconfig);
  const consoleNamespace = `console-pod-${Date.now().toString(36)}`;
  /** The console's one cluster in a pod: its in-cluster configuration, which client-node names so. */
  const zookeepers = (query: string) => `/api/v1/clusters/loaded-context/zookeepers?${query}`;
  let roles = { edit: '', view: '' };
  let base = '';
  let viewer = '';

  beforeAll(async () => {
    await controllers.install(['workload', 'console']);
    await client.createNamespace(consoleNamespace);
    roles = await createConsoleRoles(admin, consoleNamespace);
  });

  afterAll(async () => {
    await client.deleteNamespace(consoleNamespace);
    await controllers.uninstall(['console', 'workload']);
    await deleteConsoleRoles(admin, roles);
  });

  it('runs as its image’s entrypoint, Ready on /healthz, with no token of its own mounted, and serves the web page shipped beside it', async () => {
    const [pod] = await waitFor('a Ready console pod', () => controllers.pods('console'), (pods) => pods.length === 1 && pods.every((found) => found.ready), 120_000);
    expect(await controllers.commandLine(pod?.name ?? '')).toEqual(['node', ...(await imageNodeArgs()), '/app/main.mjs']);
    const volumes = await kubectl(bed, ['get', 'pod', pod?.name ?? '', '-n', CONTROLLER_NAMESPACE, '-o', 'jsonpath={.spec.volumes[*].name}']);
    expect(volumes).toBe('cluster-ca');
    base = `http://${pod?.ip ?? ''}:8443`;
    // dist/web/, which the build copies from console/web/ and the image ships with the bundle.
    const page = await fetch(`${base}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
  });

  it("acts as its caller on the pod IP: 200 with a caller's token, 401 without one, and 403 for its own ServiceAccount", async () => {
    viewer = await serviceAccountToken(admin, consoleNamespace, 'viewer');
    await kubectl(bed, ['create', 'rolebinding', 'viewer-view', '-n', consoleNamespace, `--clusterrole=${roles.view}`, `--serviceaccount=${consoleNamespace}:viewer`]);
    await client.create(consoleNamespace, 'zk', bedWorkloadSpec({ replicas: 1 }));

    expect(await call(base, 'GET', '/api/v1/clusters', viewer)).toEqual({ code: 200, body: { clusters: [{ name: 'loaded-context', namespace: 'default' }] } });
    expect((await call(base, 'GET', '/api/v1/clusters', undefined)).code).toBe(401);
    // The RBAC authorizer reads bindings from a watch cache: wait until the viewer's is seen.
    const listed = await waitFor('the viewer to list the ensembles', () => call(base, 'GET', zookeepers(`namespace=${consoleNamespace}`), viewer), (answer) => answer.code === 200, 30_000, 250);
    expect(listed.body).toMatchObject({ namespaces: [consoleNamespace], items: [{ name: 'zk', namespace: consoleNamespace }] });

    const own = await serviceAccountBearerToken(admin, CONTROLLER_NAMESPACE, 'zk-oam-console');
    const refused = await call(base, 'GET', zookeepers(`namespace=${consoleNamespace}`), own);
    expect(refused).toMatchObject({ code: 403, body: { error: { code: 403 } } });
    expect(JSON.stringify(refused.body)).toContain('system:serviceaccount:zk-oam-system:zk-oam-console');
    expect((await call(base, 'GET', zookeepers(''), own)).code).toBe(403);
  });

  it("streams the workload controller's NATS facts about the ensemble, published to the bed's NATS, as `fact` frames", async () => {
    await controllers.waitReady('workload');
    const path = `/api/v1/clusters/loaded-context/namespaces/${consoleNamespace}/zookeepers/zk/stream`;
    const response = await fetch(`${base}${path}`, { headers: { Authorization: `Bearer ${viewer}` } });
    expect(response.status).toBe(200);
    const stream = new SseReader(response);
    try {
      // Those of the last hour come first, so a fact published before the stream opened is there too.
      const fact = await stream.until((event) => event.event === 'fact');
      expect(fact.data).toMatchObject({ source: 'zk-oam-workload', subject: { kind: 'ZookeeperWorkload', namespace: consoleNamespace, name: 'zk' } });
    } finally {
      await stream.close();
    }
  });
});
