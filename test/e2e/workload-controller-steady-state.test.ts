// Steady state costs the apiserver nothing: with Ready workloads that keep being observed, the workload controller
// makes no write request in 20 s, about seven timed looks at each workload at a 3 s observe period (counted in the bed
// apiserver's audit log, by the controller's own user).
// Its leader-election Lease renewals are the one expected exception and are counted apart.
import { describe, expect, it } from 'vitest';
import { auditEntriesSince, auditLogSize, bedWorkloadSpec, isReady, useWorkloadController, waitFor } from '../src/controllers/index.js';
import { workerBed } from '../src/worker-bed.js';
import { pause } from '@zk-oam/runtime';

const bed = workerBed();
const IDLE_PERIOD_MS = 3_000;
const suite = useWorkloadController(bed, { namespacePrefix: 'wl-steady', logLevel: 'warn', env: { IDLE_PERIOD_MS: String(IDLE_PERIOD_MS) } });
const { client, namespace } = suite;
const workloads = ['steady-a', 'steady-b'];
const WINDOW_MS = 20_000;

async function reconcileCount(port: number): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${String(port)}/metrics`)).text();
  return [...text.matchAll(/^controller_runtime_reconcile_total\{[^}]*\} (\d+)$/gm)].reduce((sum, match) => sum + Number(match[1]), 0);
}

describe('the workload controller in steady state', () => {
  it('makes no write request in 20 s while its Ready workloads keep being observed', async () => {
    const running = suite.controller();
    for (const name of workloads) await client.create(namespace, name, bedWorkloadSpec({ replicas: 1 }));
    for (const name of workloads) {
      await waitFor(`${name} Ready`, () => client.get(namespace, name), (w) => isReady(w) && w.status?.leader !== undefined, 420_000, 2_000);
    }
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
