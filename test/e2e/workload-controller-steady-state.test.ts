// Steady state costs the apiserver nothing: with Ready workloads that keep being observed, the workload controller
// makes no write request in 20 s, about seven timed looks at each workload at a 3 s observe period (counted in the bed
// apiserver's audit log, by the controller's own user).
// Its leader-election Lease renewals are the one expected exception and are counted apart.
// Nor does a member pod's update that changes nothing the controller reads (the scheduler's and kubelet's conditions)
// cost a reconcile.
import { describe, expect, it } from 'vitest';
import { statefulSetNameOf } from '@zk-oam/apis';
import { auditEntriesSince, auditLogSize, bedWorkloadSpec, isReady, useWorkloadController, waitFor } from '../src/controllers/index.js';
import { workerBed } from '../src/worker-bed.js';
import { coreResources, KubeClient, objectPath, pause, PooledKubeConfig } from '@zk-oam/runtime';

const bed = workerBed();
const IDLE_PERIOD_MS = 3_000;
const suite = useWorkloadController(bed, { namespacePrefix: 'wl-steady', logLevel: 'warn', env: { IDLE_PERIOD_MS: String(IDLE_PERIOD_MS) } });
const { client, namespace } = suite;
const workloads = ['steady-a', 'steady-b'];
const WINDOW_MS = 20_000;
const PATCHES = 20;

let created: Promise<void> | undefined;

/** The file's workloads, created by the first test that asks, each Ready with a leader. */
function readyWorkloads(): Promise<void> {
  created ??= (async () => {
    for (const name of workloads) await client.create(namespace, name, bedWorkloadSpec({ replicas: 1 }));
    for (const name of workloads) {
      await waitFor(`${name} Ready`, () => client.get(namespace, name), (w) => isReady(w) && w.status?.leader !== undefined, 420_000, 2_000);
    }
  })();
  return created;
}

async function reconcileCount(port: number): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${String(port)}/metrics`)).text();
  return [...text.matchAll(/^controller_runtime_reconcile_total\{[^}]*\} (\d+)$/gm)].reduce((sum, match) => sum + Number(match[1]), 0);
}

describe('the workload controller in steady state', () => {
  it('makes no write request in 20 s while its Ready workloads keep being observed', async () => {
    const running = suite.controller();
    await readyWorkloads();
    // Let the last status write and its Events land before the window opens.
    await waitFor('a quiet controller', async () => {
      const offset = await auditLogSize(bed);
      await pause(5 * IDLE_PERIOD_MS);
      return (await auditEntriesSince(bed, offset)).filter((e) => e.user.username === running.user && e.objectRef?.resource !== 'leases');
    }, (writes) => writes.length === 0, 120_000, 0);

    const offset = await auditLogSize(bed);
    const reconcilesBefore = await reconcileCount(running.metricsPort);
    await pause(WINDOW_MS);
    const entries = (await auditEntriesSince(bed, offset)).filter((entry) => entry.user.username === running.user);
    const reconciles = (await reconcileCount(running.metricsPort)) - reconcilesBefore;

    const writes = entries.filter((entry) => entry.objectRef?.resource !== 'leases');
    expect(writes.map((e) => `${e.verb} ${e.objectRef?.resource ?? ''}/${e.objectRef?.subresource ?? ''} ${e.objectRef?.name ?? ''}`)).toEqual([]);
    // It was working all along: each workload observed about every 3 s, and the lease renewed.
    expect(reconciles).toBeGreaterThanOrEqual(workloads.length * 4);
    expect(entries.filter((entry) => entry.objectRef?.resource === 'leases').length).toBeGreaterThan(0);
  });
});

describe('the workload controller and its member pods', () => {
  it('reconciles for a pod change it reads, and not for a condition it does not', async () => {
    const running = suite.controller();
    const kubeConfig = new PooledKubeConfig();
    kubeConfig.loadFromFile(bed.kubeconfig);
    const kube = new KubeClient(kubeConfig);
    await readyWorkloads();
    const pod = objectPath(coreResources.pod, { namespace, name: `${statefulSetNameOf(workloads[0] ?? '')}-0` });
    const patch = (path: string, body: object): Promise<unknown> => kube.request('PATCH', path, { body, contentType: 'application/strategic-merge-patch+json' });
    // Each patch a pod update, spaced wider than a reconcile takes, so none merges with the one before.
    const reconcilesWhile = async (change: (index: number) => Promise<unknown>): Promise<{ reconciles: number; periodicLooks: number }> => {
      const before = await reconcileCount(running.metricsPort);
      const started = Date.now();
      for (let index = 0; index < PATCHES; index++) {
        await change(index);
        await pause(300);
      }
      const reconciles = (await reconcileCount(running.metricsPort)) - before;
      return { reconciles, periodicLooks: workloads.length * Math.ceil((Date.now() - started) / IDLE_PERIOD_MS) };
    };

    // What the scheduler does to a pod it cannot place, and kubelet to a readiness gate: a condition, over and over.
    const conditions = await reconcilesWhile((index) =>
      patch(`${pod}/status`, { status: { conditions: [{ type: 'zkoam.dev/Probed', status: index % 2 === 0 ? 'True' : 'False', lastProbeTime: new Date().toISOString() }] } }),
    );
    const labels = await reconcilesWhile((index) => patch(pod, { metadata: { labels: { 'zkoam.dev/touched': String(index) } } }));
    await patch(pod, { metadata: { labels: { 'zkoam.dev/touched': null } } });

    expect(labels.reconciles).toBeGreaterThanOrEqual((PATCHES * 3) / 4);
    // Only the timed looks at each workload, with a little slack for one that fell due twice at the window's edges.
    expect(conditions.reconciles).toBeLessThanOrEqual(conditions.periodicLooks + 3);
  });
});
