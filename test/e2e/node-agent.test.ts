// The bed's node agent runs real ZooKeeper containers for the pods of a StatefulSet, keeps their data across pod
// deletion, and reclaims volume directories once their claims are deleted.
import { ZOOKEEPER_PORTS } from '@zk-oam/apis';
import { AppsV1Api, CoreV1Api, PatchStrategy, setHeaderOptions, type V1Pod } from '@kubernetes/client-node';
import { existsSync } from 'node:fs';
import { readFile, readlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fourLetterWord, parseSrvr } from '@zk-oam/zookeeper';
import ZooKeeper from 'zookeeper';
import { podReady } from '../src/pod-ready.js';
import { waitForValue } from '../src/wait-for.js';
import { ensembleName, ensembleObjects } from '../src/agent/fixtures/zookeeper-ensemble.js';
import { isAlive } from '../src/bed/index.js';
import { workerBed } from '../src/worker-bed.js';
import { BED_ZOOKEEPER_IMAGE } from '../src/images/zookeeper-images.js';
import { PooledKubeConfig } from '@zk-oam/runtime';

const bed = workerBed();
const kubeConfig = new PooledKubeConfig();
kubeConfig.loadFromFile(bed.kubeconfig);
const core = kubeConfig.makeApiClient(CoreV1Api);
const apps = kubeConfig.makeApiClient(AppsV1Api);
// One 3-member ensemble for the three tests: each asks what the agent does for a running StatefulSet, and none needs a
// fresh one (the reclaim takes the pod left out by a scale to 2).
const namespace = `agent-${Math.random().toString(36).slice(2, 7)}`;

async function createEnsemble(replicas: number): Promise<void> {
  const { configMap, service, statefulSet } = ensembleObjects(namespace, replicas);
  await core.createNamespacedConfigMap({ namespace, body: configMap });
  await core.createNamespacedService({ namespace, body: service });
  await apps.createNamespacedStatefulSet({ namespace, body: statefulSet });
}

/** Waits until `count` pods of the ensemble are Ready, and returns them by name. */
async function readyPods(count: number): Promise<Map<string, V1Pod>> {
  return waitForValue(
    `${count} ready ZooKeeper pods in ${namespace}`,
    async () => {
      const pods = (await core.listNamespacedPod({ namespace, labelSelector: `app=${ensembleName}` })).items;
      const ready = pods.filter((pod) => podReady(pod) && pod.metadata?.deletionTimestamp === undefined);
      return ready.length === count ? new Map(ready.map((pod) => [pod.metadata?.name ?? '', pod])) : undefined;
    },
    300_000,
  );
}

async function modes(pods: Iterable<V1Pod>): Promise<string[]> {
  const answers = await Promise.all([...pods].map((pod) => fourLetterWord(pod.status?.podIP ?? '', ZOOKEEPER_PORTS.client, 'srvr')));
  return answers.map((answer) => parseSrvr(answer).mode).sort();
}

/** The host pid of the pod's container's first process, as the agent records it. */
async function pidOf(pod: V1Pod): Promise<number> {
  return Number((await readFile(join(bed.dir, 'agent', 'pids', `${pod.metadata?.namespace ?? ''}_${pod.metadata?.name ?? ''}`), 'utf8')).trim());
}

/** A process's real uid, and whether it runs in a mount namespace of its own (in a container). */
async function containment(pid: number): Promise<{ uid: number; ownMountNamespace: boolean }> {
  const status = await readFile(`/proc/${String(pid)}/status`, 'utf8');
  const uid = Number(/^Uid:\s+(\d+)/m.exec(status)?.[1]);
  const [own, host] = await Promise.all([readlink(`/proc/${String(pid)}/ns/mnt`), readlink('/proc/self/ns/mnt')]);
  return { uid, ownMountNamespace: own !== host };
}

/** The digest of the manifest the bed's registry serves for repository:tag, where the nodes pull it from. */
async function registryDigest(repository: string, tag: string): Promise<string> {
  const path = repository.slice(repository.indexOf('/') + 1);
  const response = await fetch(`http://${bed.registry}/v2/${path}/manifests/${tag}`, {
    method: 'HEAD',
    headers: { accept: 'application/vnd.oci.image.manifest.v1+json, application/vnd.docker.distribution.manifest.v2+json' },
  });
  expect(response.status).toBe(200);
  return response.headers.get('docker-content-digest') ?? '';
}

async function claimDirectory(claim: string): Promise<{ volumeName: string; path: string }> {
  const volumeName = (await core.readNamespacedPersistentVolumeClaim({ namespace, name: claim })).spec?.volumeName ?? '';
  const path = (await core.readPersistentVolume({ name: volumeName })).spec?.hostPath?.path ?? '';
  return { volumeName, path };
}

async function withZooKeeper<T>(connect: string, use: (zk: ZooKeeper) => Promise<T>): Promise<T> {
  const zk = new ZooKeeper({ connect, timeout: 10_000, debug_level: 0, host_order_deterministic: false });
  const connected = new Promise<void>((resolve) => zk.once('connect', () => resolve()));
  zk.init({});
  await connected;
  try {
    return await use(zk);
  } finally {
    zk.close();
  }
}

describe('the bed node agent', () => {
  beforeAll(async () => {
    await core.createNamespace({ body: { metadata: { name: namespace } } });
    await createEnsemble(3);
  });

  afterAll(async () => {
    await core.deleteNamespace({ name: namespace });
    await waitForValue(`namespace ${namespace} to be gone`, async () => (await core.listNamespace()).items.every((ns) => ns.metadata?.name !== namespace) || undefined, 180_000);
  });

  it('runs three ZooKeeper pods as containers of the bed’s image pulled from its registry, as their user, forming one quorum over their pod IPs', async () => {
    const pods = await readyPods(3);
    const servedDigest = await registryDigest(BED_ZOOKEEPER_IMAGE.repository, BED_ZOOKEEPER_IMAGE.tag);

    const nodes = new Set([...pods.values()].map((pod) => pod.spec?.nodeName));
    expect(nodes.size).toBe(3);
    expect(new Set([...pods.values()].map((pod) => pod.status?.podIP)).size).toBe(3);
    expect([...pods.values()].every((pod) => pod.status?.podIP?.startsWith(bed.network.podCidr.split('.').slice(0, 2).join('.')))).toBe(true);
    expect(await modes(pods.values())).toEqual(['follower', 'follower', 'leader']);
    for (const pod of pods.values()) {
      const status = pod.status?.containerStatuses?.[0];
      expect(status?.containerID).toMatch(/^runc:\/\//);
      expect(status?.imageID).toBe(`${BED_ZOOKEEPER_IMAGE.repository}@${servedDigest}`);
      expect(await containment(await pidOf(pod))).toEqual({ uid: 1000, ownMountNamespace: true });
    }
  });

  it('sets Ready back on a running pod whose Ready condition someone else turned False, as a kubelet’s status manager does', async () => {
    const pod = `${ensembleName}-0`;
    await readyPods(3);
    // What kube-controller-manager's node lifecycle controller writes to the pods of a node it thinks lost.
    // The pod as the patch wrote it: the agent may set Ready back before a read that followed could see it False.
    const marked = await core.patchNamespacedPodStatus(
      { namespace, name: pod, body: { status: { conditions: [{ type: 'Ready', status: 'False', reason: 'NodeNotReady' }] } } },
      setHeaderOptions('Content-Type', PatchStrategy.StrategicMergePatch),
    );
    expect(podReady(marked)).toBe(false);

    const again = await waitForValue(`${pod} to be Ready again`, async () => {
      const current = await core.readNamespacedPod({ namespace, name: pod });
      return podReady(current) ? current : undefined;
    }, 60_000);
    expect(again.metadata?.uid).toBe(marked.metadata?.uid);
    expect(again.status?.containerStatuses?.[0]?.restartCount).toBe(marked.status?.containerStatuses?.[0]?.restartCount);
  });

  it('stops a deleted pod, and its StatefulSet replacement rejoins the quorum under its name, with a new address and the same data directory', async () => {
    const before = await readyPods(3);
    const connect = [...before.values()].map((pod) => `${pod.status?.podIP ?? ''}:${ZOOKEEPER_PORTS.client}`).join(',');
    await withZooKeeper(connect, (zk) => zk.create('/written-before', 'kept', 0));
    const victim = before.get(`${ensembleName}-1`);
    const oldPid = victim === undefined ? 0 : await pidOf(victim);
    expect(isAlive(oldPid)).toBe(true);
    const volume = await claimDirectory(`data-${ensembleName}-1`);
    await writeFile(join(volume.path, 'marker'), 'from the first pod');

    await core.deleteNamespacedPod({ namespace, name: `${ensembleName}-1` });

    await waitForValue('the deleted pod to stop its process', async () => (isAlive(oldPid) ? undefined : true), 60_000);
    const after = await waitForValue(
      'a replacement pod that is ready',
      async () => {
        const pods = await readyPods(3);
        const replacement = pods.get(`${ensembleName}-1`);
        return replacement?.metadata?.uid !== victim?.metadata?.uid ? pods : undefined;
      },
      300_000,
    );
    const replacement = after.get(`${ensembleName}-1`);
    // As on a cluster, the replacement has an address of its own; the others find it again by its DNS name.
    expect(replacement?.status?.podIP).not.toBe(victim?.status?.podIP);
    expect(await claimDirectory(`data-${ensembleName}-1`)).toEqual(volume);
    expect(existsSync(join(volume.path, 'marker'))).toBe(true);
    expect(await modes(after.values())).toEqual(['follower', 'follower', 'leader']);
    const data = await withZooKeeper(`${replacement?.status?.podIP ?? ''}:${ZOOKEEPER_PORTS.client}`, async (zk) => zk.get('/written-before', false));
    expect(String(data[1])).toBe('kept');
  });

  it('removes a volume directory and its PV once the claim is deleted after its pod', async () => {
    const victim = `${ensembleName}-2`;
    await readyPods(3);
    const volume = await claimDirectory(`data-${victim}`);
    // What the member wrote: the directory removed is one in use, not an empty one.
    expect(existsSync(join(volume.path, 'data', 'myid'))).toBe(true);

    await apps.patchNamespacedStatefulSetScale(
      { namespace, name: ensembleName, body: { spec: { replicas: 2 } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    await waitForValue('the pod to be gone', async () => ((await core.listNamespacedPod({ namespace })).items.some((pod) => pod.metadata?.name === victim) ? undefined : true), 120_000);
    expect(existsSync(volume.path)).toBe(true);
    await core.deleteNamespacedPersistentVolumeClaim({ namespace, name: `data-${victim}` });

    await waitForValue('the volume directory to be removed', async () => (existsSync(volume.path) ? undefined : true), 120_000);
    await waitForValue(
      'the PV to be deleted',
      async () => ((await core.listPersistentVolume()).items.some((pv) => pv.metadata?.name === volume.volumeName) ? undefined : true),
      120_000,
    );
  });

  it('filters the system calls of a RuntimeDefault container, which may not make a namespace, and of no other', async () => {
    const probe = (name: string, seccompProfile: { type: string } | undefined): V1Pod => ({
      metadata: { name },
      spec: {
        terminationGracePeriodSeconds: 0,
        securityContext: { runAsUser: 1000, runAsGroup: 1000, ...(seccompProfile === undefined ? {} : { seccompProfile }) },
        containers: [
          {
            name: 'probe',
            image: `${BED_ZOOKEEPER_IMAGE.repository}:${BED_ZOOKEEPER_IMAGE.tag}`,
            command: ['/bin/bash', '-c', 'if unshare --user true; then echo made a user namespace; fi; exec sleep infinity'],
          },
        ],
      },
    });
    const pods = [probe('runtime-default', { type: 'RuntimeDefault' }), probe('unconfined', undefined)];
    for (const pod of pods) await core.createNamespacedPod({ namespace, body: pod });
    const seen = new Map<string, { seccomp: string; log: string }>();
    for (const pod of pods) {
      const name = pod.metadata?.name ?? '';
      const running = await waitForValue(`${name} running`, async () => {
        const read = await core.readNamespacedPod({ namespace, name });
        return read.status?.containerStatuses?.[0]?.state?.running === undefined ? undefined : read;
      }, 60_000);
      const log = join(bed.dir, 'agent', 'pods', `${namespace}_${name}`, 'container.log');
      const ended = await waitForValue(`${name}'s unshare to end`, async () => {
        const text = await readFile(log, 'utf8').catch(() => '');
        return /unshare|made a user namespace/.test(text) ? text : undefined;
      }, 30_000);
      const status = await readFile(`/proc/${String(await pidOf(running))}/status`, 'utf8');
      seen.set(name, { seccomp: /^Seccomp:\s+(\d)/m.exec(status)?.[1] ?? '', log: ended.trim() });
    }
    expect(seen.get('runtime-default')).toStrictEqual({ seccomp: '2', log: 'unshare: unshare failed: Operation not permitted' });
    expect(seen.get('unconfined')).toStrictEqual({ seccomp: '0', log: 'made a user namespace' });
    for (const pod of pods) await core.deleteNamespacedPod({ namespace, name: pod.metadata?.name ?? '' });
  });

  it('shows a pod whose image the registry does not have as ErrImagePull, then ImagePullBackOff, naming the image, and never runs it', async () => {
    const missing = 'localhost/zk-oam/no-such-image:1';
    const name = 'missing-image';
    await core.createNamespacedPod({
      namespace,
      body: { metadata: { name }, spec: { terminationGracePeriodSeconds: 0, containers: [{ name: 'app', image: missing }] } },
    });
    const reasons = new Set<string>();
    const waiting = await waitForValue(
      `${name} to back off pulling ${missing}`,
      async () => {
        const state = (await core.readNamespacedPod({ namespace, name })).status?.containerStatuses?.[0]?.state;
        expect(state?.running).toBeUndefined();
        if (state?.waiting?.reason !== undefined) reasons.add(state.waiting.reason);
        return reasons.has('ErrImagePull') && state?.waiting?.reason === 'ImagePullBackOff' ? state.waiting : undefined;
      },
      60_000,
      100,
    );
    expect(waiting.message).toBe(`Back-off pulling image "${missing}"`);
    expect((await core.readNamespacedPod({ namespace, name })).status?.phase).toBe('Pending');
    await core.deleteNamespacedPod({ namespace, name });
  });
});
