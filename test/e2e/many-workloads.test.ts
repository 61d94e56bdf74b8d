// Pacing does not starve real work: 20 single-member workloads whose ZooKeeper pods run, under one workload and one
// scale controller whose timed looks are paced to OBSERVATIONS_PER_SECOND=2 (20 Ready ensembles at a 10 s period
// would want 2 per second, so the pacer is at its limit). Every workload becomes Ready, then 5 of them are scaled
// 1 -> 3 at once and all 5 complete, while the other 15 stay Ready. Figures are printed, not asserted.
import { memberSelectorOf, type ZookeeperWorkload } from '@zk-oam/apis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bedWorkloadSpec,
  counterOf,
  installCrds,
  isReady,
  startControllerProcess,
  stopCleanly,
  waitControllerReady,
  waitFor,
  WorkloadClient,
  type ControllerProcess,
} from '../src/controllers/index.js';
import { ensembleTruth, ScaleClient, settledAt, waitScaled } from './scale-support.js';
import { workerBed } from '../src/worker-bed.js';

const bed = workerBed();
const namespace = `many-${Date.now().toString(36)}`;
const WORKLOADS = 20;
const SCALED = 5;
const PACE = { OBSERVATIONS_PER_SECOND: '2' };
const workloads = new WorkloadClient(bed);
const scales = new ScaleClient(bed);
const names = Array.from({ length: WORKLOADS }, (_, index) => `zk-${String(index).padStart(2, '0')}`);
const running: ControllerProcess[] = [];

async function ourWorkloads(): Promise<ZookeeperWorkload[]> {
  return (await workloads.list(namespace)).filter((workload) => names.includes(workload.metadata.name));
}

describe(`${String(WORKLOADS)} running ensembles under paced controllers`, () => {
  beforeAll(async () => {
    await installCrds(bed);
    for (const name of ['workload', 'scale'] as const) {
      const started = await startControllerProcess({ bed, name, env: { ...PACE, ...(name === 'scale' ? { STEP_PERIOD_MS: '1000' } : {}) } });
      running.push(started);
      await waitControllerReady(started);
    }
    await workloads.createNamespace(namespace);
  });

  afterAll(async () => {
    await workloads.deleteNamespace(namespace);
    for (const controller of running) await stopCleanly(controller);
  });

  it('brings every one of them to Ready', async () => {
    const started = Date.now();
    for (const name of names) {
      await workloads.create(namespace, name, bedWorkloadSpec({ replicas: 1 }));
      await scales.create(namespace, `${name}-size`, { workloadRef: { name }, replicas: 1 });
    }
    const all = await waitFor(
      `${String(WORKLOADS)} Ready workloads with a leader`,
      ourWorkloads,
      (found) => found.length === WORKLOADS && found.every((workload) => isReady(workload) && workload.status?.leader !== undefined),
      1_200_000,
      5_000,
    );
    expect(all).toHaveLength(WORKLOADS);
    console.log(`[many] ${String(WORKLOADS)} workloads Ready ${((Date.now() - started) / 1000).toFixed(0)} s after the first was created`);
  });

  it(`scales ${String(SCALED)} of them 1 -> 3 at once to the end, and the others stay Ready`, async () => {
    const [workloadController] = running;
    if (workloadController === undefined) throw new Error('the workload controller did not start');
    const reconcilesBefore = await counterOf(workloadController, 'controller_runtime_reconcile_total');
    const started = Date.now();
    const chosen = names.slice(0, SCALED);
    await Promise.all(chosen.map((name) => scales.scale(namespace, `${name}-size`, 3)));
    await Promise.all(
      chosen.map(async (name) => {
        const listPods = async () => (await workloads.core.listNamespacedPod({ namespace, labelSelector: memberSelectorOf(name) })).items;
        await waitScaled(scales, { namespace, trait: `${name}-size`, listPods }, 3);
        expect(settledAt(await ensembleTruth(listPods), 3)).toBe(true);
      }),
    );
    const seconds = (Date.now() - started) / 1000;
    const others = (await ourWorkloads()).filter((workload) => !chosen.includes(workload.metadata.name));
    expect(others.filter((workload) => !isReady(workload)).map((workload) => workload.metadata.name)).toEqual([]);
    const reconciles = (await counterOf(workloadController, 'controller_runtime_reconcile_total')) - reconcilesBefore;
    console.log(`[many] ${String(SCALED)} scales 1 -> 3 done in ${seconds.toFixed(0)} s; workload reconciles meanwhile ${String(reconciles)} (${(reconciles / seconds).toFixed(1)}/s)`);
  });
});
