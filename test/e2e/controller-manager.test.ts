// The controllers in one process, installed as deploy/manager is (the default install): each controller elects
// its leader by its own Lease, so the manager's replicas lead them one by one; when the process that leads them all
// stops (frozen, then killed), every one fails over to the standby, whose controllers then act; a controller CONTROLLERS
// leaves out never starts, and its Lease is not touched. (A process killed and restarted at once in the same pod keeps
// its identity, the pod's name, and takes its own Leases back without waiting: so the leader is frozen first.) Each
// controller acts as its own ServiceAccount, by a token the manager asks for: the audit log names it, and a write only
// another controller's Role allows is refused. Controllers that watch the same kind with the same selector share one
// watch: the apiserver holds one per process, not one per controller.
import { readFile } from 'node:fs/promises';
import { AppsV1Api, AuthorizationV1Api, CoordinationV1Api, RbacAuthorizationV1Api, type V1ClusterRole } from '@kubernetes/client-node';
import { MANAGED_BY, MANAGED_BY_LABEL } from '@zk-oam/apis';
import { pause, PooledKubeConfig } from '@zk-oam/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTROLLER_NAMES, type ControllerName } from '../src/bed/controller-images.js';
import { ControllerPods, deploymentName, type ControllerPod } from '../src/controllers/controller-pods.js';
import { auditEntriesSince, auditLogSize, bedWorkloadSpec, CONTROLLER_NAMESPACE, kubectl, waitFor, WorkloadClient, type AuditEntry } from '../src/controllers/index.js';
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
const rbac = kubeConfig.makeApiClient(RbacAuthorizationV1Api);
const authorization = kubeConfig.makeApiClient(AuthorizationV1Api);
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

/** The user the apiserver names for requests made with controller `name`'s ServiceAccount (or the manager's). */
function serviceAccountUser(name: ControllerName | 'manager'): string {
  return `system:serviceaccount:${CONTROLLER_NAMESPACE}:zk-oam-${name}`;
}

/** Whether that ServiceAccount's RBAC allows creating Events in `namespace`, as the apiserver's authorizer answers. */
async function mayRecordEvents(name: ControllerName): Promise<boolean> {
  const review = await authorization.createSubjectAccessReview({
    body: { spec: { user: serviceAccountUser(name), resourceAttributes: { namespace, verb: 'create', group: 'events.k8s.io', resource: 'events' } } },
  });
  return review.status?.allowed === true;
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

/** The kinds more than one controller watches, by the plural the apiserver's metrics name them by. */
const SHARED_KINDS = ['pods', 'statefulsets', 'zookeeperworkloads'] as const;

/** The watches of each of those kinds the apiserver holds open now, whoever opened them. */
async function openWatches(): Promise<Record<(typeof SHARED_KINDS)[number], number>> {
  const text = await kubectl(bed, ['get', '--raw', '/metrics']);
  const count = (resource: string): number => sampleValues(text, 'apiserver_longrunning_requests', { resource, verb: 'WATCH' }).reduce((sum, value) => sum + value, 0);
  return { pods: count('pods'), statefulsets: count('statefulsets'), zookeeperworkloads: count('zookeeperworkloads') };
}

async function residentMiB(pod: ControllerPod): Promise<number> {
  const status = await readFile(`/proc/${String(await controllers.processId(pod.name))}/status`, 'utf8');
  return Math.round(Number(/^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1] ?? 0) / 1024);
}

describe('the controllers in one manager process (deploy/manager)', () => {
  let leader: ControllerPod | undefined;
  let standby: ControllerPod | undefined;
  /** Where the audit log stood before any manager started. */
  let auditFrom = 0;
  /** The watches of the shared kinds before any manager started, the CRDs installed. */
  let watchesBefore: Awaited<ReturnType<typeof openWatches>> | undefined;

  beforeAll(async () => {
    auditFrom = await auditLogSize(bed);
    await controllers.installShared(['manager']);
    // kube-controller-manager's garbage collector watches a new kind once its discovery (every 30 s) finds it.
    watchesBefore = await waitFor('the garbage collector watching ZookeeperWorkloads', openWatches, (open) => open.zookeeperworkloads > 0, 90_000, 1_000);
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

  it('holds one watch per kind and selector in each process, however many of its controllers cache that kind', async () => {
    // Five controllers cache the members' pods and the workloads, three the StatefulSets: one watch of each per replica.
    const before = watchesBefore;
    if (before === undefined) throw new Error('no count of watches before the managers started');
    const opened = await waitFor(
      'one watch of each shared kind per replica',
      async () => {
        const now = await openWatches();
        return Object.fromEntries(SHARED_KINDS.map((kind) => [kind, now[kind] - before[kind]]));
      },
      (delta) => SHARED_KINDS.every((kind) => delta[kind] === 2),
      60_000,
      1_000,
    ).catch(async (error: unknown) => {
      console.log(`[controller-manager] watches opened by the two replicas: ${JSON.stringify(await openWatches())} against ${JSON.stringify(before)} before`);
      throw error;
    });
    expect(opened).toEqual({ pods: 2, statefulsets: 2, zookeeperworkloads: 2 });
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

  it("acts as each controller's own ServiceAccount: the audit log names it, and a write only another controller's Role allows is refused", async () => {
    // The manager's own account asked for each controller's token, and nothing else was written as it.
    const fromStart = await auditEntriesSince(bed, auditFrom);
    const asManager = fromStart.filter((entry) => entry.user.username === serviceAccountUser('manager'));
    expect(new Set(asManager.map((entry) => `${entry.objectRef?.resource ?? ''}/${entry.objectRef?.subresource ?? ''}`))).toEqual(new Set(['serviceaccounts/token']));
    expect(new Set(asManager.map((entry) => entry.objectRef?.name))).toEqual(new Set(CONTROLLER_NAMES.map((name) => deploymentName(name))));
    // Each controller renews its own Lease as its own ServiceAccount.
    const renewedFrom = await auditLogSize(bed);
    const leaseWriters = (entries: AuditEntry[], name: ControllerName): Set<string> =>
      new Set(entries.filter((entry) => entry.objectRef?.resource === 'leases' && entry.objectRef.name === deploymentName(name)).map((entry) => entry.user.username));
    const renewals = await waitFor(
      "a renewal of every controller's Lease",
      () => auditEntriesSince(bed, renewedFrom),
      (entries) => CONTROLLER_NAMES.every((name) => leaseWriters(entries, name).size > 0),
      60_000,
      500,
    );
    for (const name of CONTROLLER_NAMES) expect(leaseWriters(renewals, name), name).toEqual(new Set([serviceAccountUser(name)]));

    // Events: every controller's Role allows recording them. Taken from the workload controller's alone, its Events are
    // refused, though the scale controller's Role, in the same process, still allows them.
    const original = await rbac.readClusterRole({ name: deploymentName('workload') });
    const withoutEvents: V1ClusterRole = { ...original, rules: (original.rules ?? []).filter((rule) => !(rule.apiGroups ?? []).includes('events.k8s.io')) };
    await rbac.replaceClusterRole({ name: deploymentName('workload'), body: withoutEvents });
    try {
      await waitFor('the workload controller refused Events', () => mayRecordEvents('workload'), (allowed) => !allowed, 30_000);
      expect(await mayRecordEvents('scale')).toBe(true);
      const createdFrom = await auditLogSize(bed);
      await client.create(namespace, 'zk-identity', bedWorkloadSpec({ replicas: 1 }));
      const refused = await waitFor(
        "the workload controller's Event about the new workload, refused",
        async () => (await auditEntriesSince(bed, createdFrom)).filter((entry) => entry.objectRef?.resource === 'events' && entry.responseStatus?.code === 403),
        (entries) => entries.length > 0,
        60_000,
        500,
      );
      expect(new Set(refused.map((entry) => entry.user.username))).toEqual(new Set([serviceAccountUser('workload')]));
      // The workload controller still did what its own Role allows.
      await waitFor('the StatefulSet of the new workload', async () => (await apps.listNamespacedStatefulSet({ namespace })).items, (items) => items.length === 2, 60_000);
    } finally {
      // As it was, whatever version the change made.
      await rbac.replaceClusterRole({ name: deploymentName('workload'), body: { ...original, metadata: { ...original.metadata, resourceVersion: undefined } } });
    }
  });
});
