// `npm run bench:burst`: the CPU of the combined manager (every controller, one replica leading) through bursts of new
// ensembles, for builds, node arguments and environments side by side, so that one change can be measured in minutes
// (`npm run bench` takes half an hour for the same figure beside pravega's). Variants (ZKOAM_BENCH_BURST_VARIANTS,
// separated by `;`, each `label=dir|node arguments|NAME=value ...`: a copy of controllers/manager/dist/ or empty for
// the current one, the images' ENTRYPOINT arguments when empty, extra environment split at spaces) take turns on one
// bed, ZKOAM_BENCH_BURST_ROUNDS rounds (3 by default) of one started manager each, so that what drifts over a run (the
// apiserver's store, the machine's load) weighs on all alike. Each round is ZKOAM_BENCH_BURST_REPS bursts (1) of
// ZKOAM_BENCH_BURST_SIZE ensembles (100) whose pods never schedule, as `npm run bench` applies them. Printed per
// variant: the CPU from the apply until every ensemble carries a status (`npm run bench`'s burst CPU), how long that
// took, the CPU until 15 s after the last pod was created, and the reconciles of every controller until then. It runs
// the bundles as they are: `npm run build` first.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CoreV1Api } from '@kubernetes/client-node';
import { pino } from 'pino';
import { PooledKubeConfig } from '@zk-oam/runtime';
import { resolveBinaries, startBed, type BedInfo } from '../src/bed/index.js';
import { installCrds, installOam, repoRoot, startControllerProcess, waitControllerReady, waitFor, type ControllerProcess } from '../src/controllers/index.js';
import { managerDeploymentEnv } from '../src/controllers/manifests.js';
import { sampleValues } from '../src/controllers/metric-samples.js';
import { cell } from './figures.js';
import { processUsage } from './process-usage.js';
import { untilSeen } from './first-seen.js';
import { applyBurst, watchObserved, workloadsOf } from './operators.js';

interface Variant {
  readonly label: string;
  readonly distDir: string | undefined;
  readonly nodeArgs: readonly string[] | undefined;
  readonly env: Readonly<Record<string, string>>;
}

function parseVariant(entry: string): Variant {
  const [head = '', nodeArgs = '', env = ''] = entry.split('|');
  const [label = '', distDir = ''] = head.split('=');
  return {
    label,
    distDir: distDir === '' ? undefined : distDir,
    nodeArgs: nodeArgs === '' ? undefined : nodeArgs.split(' '),
    env: Object.fromEntries(
      env
        .split(' ')
        .filter((pair) => pair.includes('='))
        .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
    ),
  };
}

const VARIANTS = (process.env['ZKOAM_BENCH_BURST_VARIANTS'] ?? `dist=${join(repoRoot, 'controllers/manager/dist')}`).split(';').map(parseVariant);
const ROUNDS = Number(process.env['ZKOAM_BENCH_BURST_ROUNDS'] ?? 3);
const REPS = Number(process.env['ZKOAM_BENCH_BURST_REPS'] ?? 1);
const SIZE = Number(process.env['ZKOAM_BENCH_BURST_SIZE'] ?? 100);
const SETTLE_MS = 10_000;
const AFTER_LAST_POD_MS = 15_000;

interface BurstFigures {
  readonly observedCpuS: number;
  readonly observedS: number;
  readonly afterCpuS: number;
  readonly reconciles: number;
}

function say(line: string): void {
  process.stderr.write(`[bench:burst] ${line}\n`);
}

async function cpuSeconds(manager: ControllerProcess): Promise<number> {
  return (await processUsage(manager.pid() ?? Number.NaN)).cpuSeconds;
}

async function metrics(manager: ControllerProcess): Promise<string> {
  return (await fetch(`http://127.0.0.1:${String(manager.metricsPort)}/metrics`)).text();
}

async function reconcileTotal(manager: ControllerProcess): Promise<number> {
  return sampleValues(await metrics(manager), 'controller_runtime_reconcile_total').reduce((sum, value) => sum + value, 0);
}

async function startManager(bed: BedInfo, variant: Variant, round: number): Promise<ControllerProcess> {
  // The controllers the variant runs (deploy/manager's unless it names them), each of which leads by its own Lease.
  const controllerCount = (variant.env['CONTROLLERS'] ?? (await managerDeploymentEnv())['CONTROLLERS'] ?? '').split(',').length;
  const manager = await startControllerProcess({
    bed,
    name: 'manager',
    logLevel: 'warn',
    env: { POD_NAME: `bench-burst-${variant.label}-${String(round)}`, ...variant.env },
    ...(variant.distDir === undefined ? {} : { distDir: variant.distDir }),
    ...(variant.nodeArgs === undefined ? {} : { nodeArgs: variant.nodeArgs }),
  });
  await waitControllerReady(manager);
  await waitFor(
    `the manager of ${variant.label} leading every controller`,
    async () => sampleValues(await metrics(manager), 'leader_election_master_status'),
    (values) => values.length >= controllerCount && values.every((value) => value === 1),
    60_000,
    500,
  );
  return manager;
}

async function main(): Promise<void> {
  const bed = await startBed({ log: pino({ level: 'warn' }), binaries: await resolveBinaries(process.env), controllerManagerApiQps: 200, ourImages: [] });
  const results = new Map<string, BurstFigures[]>();
  try {
    await installCrds(bed.info);
    await installOam(bed.info);
    const kubeConfig = new PooledKubeConfig();
    kubeConfig.loadFromFile(bed.info.kubeconfig);
    const core = kubeConfig.makeApiClient(CoreV1Api);
    const workloads = workloadsOf(bed.info);
    let burstCount = 0;
    for (let round = 1; round <= ROUNDS; round += 1) {
      for (const variant of VARIANTS) {
        const manager = await startManager(bed.info, variant, round);
        await sleep(SETTLE_MS);
        for (let rep = 1; rep <= REPS; rep += 1) {
          const namespace = `bench-burst-${String(burstCount++)}`;
          await core.createNamespace({ body: { metadata: { name: namespace } } });
          const cpuBefore = await cpuSeconds(manager);
          const reconcilesBefore = await reconcileTotal(manager);
          const watch = await watchObserved(kubeConfig, workloads.kind, namespace);
          const started = performance.now();
          await applyBurst(workloads, namespace, SIZE);
          const lastObserved = await untilSeen(watch, SIZE, `${String(SIZE)} ensembles observed`, 600_000);
          const observedCpuS = (await cpuSeconds(manager)) - cpuBefore;
          watch.stop();
          const observed = { observedCpuS, observedS: (lastObserved - started) / 1000 };
          // Every StatefulSet creates its three pods at once (Parallel).
          await waitFor(`the pods of ${namespace}`, async () => (await core.listNamespacedPod({ namespace })).items.length, (pods) => pods >= SIZE * 3, 600_000, 1_000);
          await sleep(AFTER_LAST_POD_MS);
          const figures = { ...observed, afterCpuS: (await cpuSeconds(manager)) - cpuBefore, reconciles: (await reconcileTotal(manager)) - reconcilesBefore };
          results.set(variant.label, [...(results.get(variant.label) ?? []), figures]);
          say(`${variant.label}, round ${String(round)}, burst ${String(rep)}: ${JSON.stringify(figures)}`);
          await core.deleteNamespace({ name: namespace });
          await waitFor(`namespace ${namespace} gone`, () => core.readNamespace({ name: namespace }).then(() => false, () => true), (gone) => gone, 600_000, 2_000);
        }
        await manager.stop();
      }
    }
    const loadAverage = (await readFile('/proc/loadavg', 'utf8')).split(' ').slice(0, 3).join(' ');
    console.log(
      [
        '',
        `Bursts of ${String(SIZE)} ensembles, ${String(ROUNDS)} round(s) of ${String(REPS)} per variant; median (min-max). Load average at the end: ${loadAverage}.`,
        '',
        '| variant | CPU until all observed (s) | all observed after (s) | CPU until 15 s after the last pod (s) | reconciles until then |',
        '| --- | --- | --- | --- | --- |',
        ...VARIANTS.map(({ label }) => {
          const samples = results.get(label) ?? [];
          const column = (key: keyof BurstFigures, digits: number): string => cell(samples.map((sample) => sample[key]), digits);
          return `| ${label} | ${column('observedCpuS', 2)} | ${column('observedS', 1)} | ${column('afterCpuS', 2)} | ${column('reconciles', 0)} |`;
        }),
      ].join('\n'),
    );
  } finally {
    await bed.stop();
  }
}

await main();
