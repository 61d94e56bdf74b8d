// The controllers in one process, installed as deploy/manager is (the default install): each controller elects
// its leader by its own Lease, so the manager's replicas lead them one by one; when the process that leads them all
// stops (frozen, then killed), every one fails over to the standby, whose controllers then act; a controller CONTROLLERS
// leaves out never starts, and its Lease is not touched. (A process killed and restarted at once in the same pod keeps
// its identity, the pod's name, and takes its own Leases back without waiting: so the leader is frozen first.)
import { readFile } from 'node:fs/promises';
import { AppsV1Api, CoordinationV1Api } from '@kubernetes/client-node';
import { MANAGED_BY, MANAGED_BY_LABEL } from '@zk-oam/apis';
import { pause, PooledKubeConfig } from '@zk-oam/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTROLLER_NAMES, type ControllerName } from '../src/bed/controller-images.js';
import { ControllerPods, deploymentName, type ControllerPod } from '../src/controllers/controller-pods.js';
import { bedWorkloadSpec, CONTROLLER_NAMESPACE, waitFor, WorkloadClient } from '../src/controllers/index.js';
import { sampleValues } from '../src/controllers/metric-samples.js';
import { workerBed } from '../src/worker-bed.js';

const bed = workerBed();
const controllers = new ControllerPods(bed);
const client = new WorkloadClient(bed);
const namespace = `controller-manager-${Date.now().toString(36)}`;
const kubeConfig = new PooledKubeConfig();
kubeConfig.loadFromFile(bed.kubeconfig);
const coordination = kubeConfig.makeApiClient(CoordinationV1Api);
const apps = kubeConfig.makeApiClient(AppsV1Api);
/** controller-runtime's lease duration, the runtime's default: a killed leader's Leases are taken once it has passed. */
const LEASE_DURATION_MS = 15_000;
const ALL = CONTROLLER_NAMES.join(',');

/** The controller's Lease as the apiserver has it: who holds it, and its version (unchanged: nobody wrote it). */
async function lease(controller: ControllerName): Promise<{ holder: string; resourceVersion: string } | undefined> {
  const found = await coordination.readNamespacedLease({ namespace: CONTROLLER_NAMESPACE, name: deploymentName(controller) }).catch(() => undefined);
  return found === undefined ? undefined : { holder: found.spec?.holderIdentity ?? '', resourceVersion: found.metadata?.resourceVersion ?? '' };
}

async function holders(): Promise<(string | undefined)[]> {
  return Promise.all(CONTROLLER_NAMES.map(async (controller) => (await lease(controller))?.holder));
}

async function get(pod: ControllerPod, path: string): Promise<{ status: number; text: string }> {
  const response = await fetch(`http://${pod.ip}:8080${path}`);
  return { status: response.status, text: await response.text() };
}

/** Each controller's own view of its Lease, from the pod's /metrics: 1 while it leads. */
async function leading(pod: ControllerPod): Promise<number[][]> {
  const { text } = await get(pod, '/metrics');
  return CONTROLLER_NAMES.map((controller) => sampleValues(text, 'leader_election_master_status', { controller }));
}

async function residentMiB(pod: ControllerPod): Promise<number> {
  const status = await readFile(`/proc/${String(await controllers.processId(pod.name))}/status`, 'utf8');
  return Math.round(Number(/^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1] ?? 0) / 1024);
}

describe('the controllers in one manager process (deploy/manager)', () => {
  let leader: ControllerPod | undefined;
  let standby: ControllerPod | undefined;

  beforeAll(async () => {
    await controllers.installShared(['manager']);
    await client.createNamespace(namespace);
  });

  afterAll(async () => {
    await client.deleteNamespace(namespace);
    await controllers.uninstall(['manager']);
  });

  it('runs only the controllers CONTROLLERS names: one left out does not start, and its Lease is not taken', async () => {
    const untouched = { rolling: await lease('rolling'), appconfig: await lease('appconfig'), znode: await lease('znode'), backup: await lease('backup') };
    await controllers.installDeployments(['manager'], { replicas: 1, env: { CONTROLLERS: 'workload,scale' } });
    const [pod] = await controllers.waitReady('manager');
    if (pod === undefined) throw new Error('no manager pod');
    // Five retry periods (2 s) after both enabled controllers lead: a controller that ran would have written its Lease.
    await pause(10_000);
    expect({ rolling: await lease('rolling'), appconfig: await lease('appconfig'), znode: await lease('znode'), backup: await lease('backup') }).toEqual(untouched);
    expect(await leading(pod)).toEqual(CONTROLLER_NAMES.map((controller) => (['workload', 'scale'].includes(controller) ? [1] : [])));
    const { text } = await get(pod, '/metrics');
    expect(text).not.toContain('controller="rolling"');
    expect(text).not.toContain('controller="appconfig"');
    expect(text).not.toContain('controller="znode"');
    expect(await get(pod, '/readyz')).toEqual({ status: 200, text: 'ok\n' });
    expect((await get(pod, '/readyz/rolling')).status).toBe(404);
    const log = await readFile(pod.logFile, 'utf8');
    for (const started of ['workload', 'scale']) expect(log).toContain(`starting the ${started} controller`);
    for (const left of ['rolling', 'appconfig', 'znode']) expect(log).not.toContain(`starting the ${left} controller`);
  });

  it('runs them all in each of two replicas, each under its own Lease, the standby following in every one', async () => {
    // One replica first, so that one process takes every Lease; then the standby.
    await controllers.installDeployments(['manager'], { replicas: 1, env: { CONTROLLERS: ALL } });
    [leader] = await controllers.waitReady('manager', 180_000);
    await controllers.installDeployments(['manager'], { replicas: 2, env: { CONTROLLERS: ALL } });
    const pods = await controllers.waitReady('manager', 180_000);
    standby = pods.find((pod) => pod.name !== leader?.name);
    if (leader === undefined || standby === undefined) throw new Error(`no leader and standby among ${pods.map((pod) => pod.name).join(', ')}`);
    expect(await holders()).toEqual(CONTROLLER_NAMES.map(() => leader?.name));
    expect(await leading(leader)).toEqual(CONTROLLER_NAMES.map(() => [1]));
    expect(await leading(standby)).toEqual(CONTROLLER_NAMES.map(() => [0]));
    // The standby's caches are synced in every controller: it is Ready to take over.
    expect(await get(standby, '/readyz')).toEqual({ status: 200, text: 'ok\n' });
    console.log(`[controller-manager] resident memory: leader ${leader.name} ${String(await residentMiB(leader))} MiB, standby ${standby.name} ${String(await residentMiB(standby))} MiB`);
  });

  it('fails every controller over to the standby when the leading process stops, and they act there', async () => {
    if (leader === undefined || standby === undefined) throw new Error('the previous test found no leader and standby');
    const pid = await controllers.processId(leader.name);
    const stoppedAt = Date.now();
    // Frozen, the process neither renews nor releases any of its Leases: as a killed one, until they expire.
    process.kill(pid, 'SIGSTOP');
    try {
      const standbyName = standby.name;
      await waitFor('every Lease held by the standby', holders, (found) => found.every((holder) => holder === standbyName), 120_000, 250);
    } finally {
      process.kill(pid, 'SIGKILL');
    }
    const tookMs = Date.now() - stoppedAt;
    console.log(`[controller-manager] all ${String(CONTROLLER_NAMES.length)} Leases taken by ${standby.name} ${String(tookMs)} ms after ${leader.name} stopped`);
    expect(tookMs).toBeGreaterThan(LEASE_DURATION_MS - 4_000);
    expect(await leading(standby)).toEqual(CONTROLLER_NAMES.map(() => [1]));
    // The killed process is started again in its pod: a standby now, every Lease staying where it is.
    await waitFor(`${leader.name} restarted`, () => controllers.pods('manager'), (pods) => (pods.find((pod) => pod.name === leader?.name)?.restarts ?? 0) >= 1, 120_000);
    await controllers.waitReady('manager', 120_000);
    expect(await holders()).toEqual(CONTROLLER_NAMES.map(() => standby?.name));
    await client.create(namespace, 'zk', bedWorkloadSpec({ replicas: 1 }));
    const statefulSets = await waitFor(
      'the StatefulSet of a workload created after the failover',
      async () => (await apps.listNamespacedStatefulSet({ namespace })).items,
      (items) => items.length === 1,
      60_000,
    );
    expect(statefulSets[0]?.metadata?.labels?.[MANAGED_BY_LABEL]).toBe(MANAGED_BY);
  });
});
