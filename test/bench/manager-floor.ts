// `npm run bench:floor`: the floor of the manager's resident memory, an idle manager (no workload in the cluster),
// for builds and Node settings side by side. Every combination of a build (ZKOAM_BENCH_FLOOR_BUILDS, `label=dir` pairs
// separated by commas: a copy of controllers/manager/dist/ each, the current one by default), a set of controllers
// (ZKOAM_BENCH_FLOOR_SETS, sets separated by `;`: every controller, and the workload controller alone) and NODE_OPTIONS
// (ZKOAM_BENCH_FLOOR_NODE_OPTIONS, separated by `;`: deploy/manager's by default) and node arguments before the program
// (ZKOAM_BENCH_FLOOR_NODE_ARGS, separated by `;`, each split at spaces: the images' ENTRYPOINT's by default; for the V8
// flags NODE_OPTIONS refuses, such as --max-opt) and other environment variables (ZKOAM_BENCH_FLOOR_ENV, separated by `;`, each
// `NAME=value` pairs split at spaces: none by default; for glibc's malloc tunables) runs at the same time, on one bed,
// each leading its controllers (LEADER_ELECTION=false), so the machine's load weighs on all of them alike. Once all are
// ready and ZKOAM_BENCH_SETTLE_MS passed, RSS and the V8 heap in use are read five times, 2 s apart; the table has
// their medians, and the CPU each spent over those 8 s.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pino } from 'pino';
import { resolveBinaries, startBed } from '../src/bed/index.js';
import { deploymentRuntimeEnv, imageNodeArgs, installCrds, installOam, repoRoot, startControllerProcess, waitControllerReady, type ControllerProcess } from '../src/controllers/index.js';
import { sampleValues } from '../src/controllers/metric-samples.js';
import { median } from './figures.js';
import { processUsage } from './process-usage.js';

const BUILDS = (process.env['ZKOAM_BENCH_FLOOR_BUILDS'] ?? `dist=${join(repoRoot, 'controllers/manager/dist')}`).split(',').map((entry) => {
  const [label = '', dir = ''] = entry.split('=');
  return { label, dir };
});
const SETS = (process.env['ZKOAM_BENCH_FLOOR_SETS'] ?? 'workload,scale,rolling,appconfig,znode,backup;workload').split(';');
const NODE_OPTIONS = process.env['ZKOAM_BENCH_FLOOR_NODE_OPTIONS']?.split(';') ?? [(await deploymentRuntimeEnv('manager'))['NODE_OPTIONS'] ?? ''];
const NODE_ARGS = process.env['ZKOAM_BENCH_FLOOR_NODE_ARGS']?.split(';') ?? [(await imageNodeArgs()).join(' ')];
const EXTRA_ENV = process.env['ZKOAM_BENCH_FLOOR_ENV']?.split(';') ?? [''];
const SETTLE_MS = Number(process.env['ZKOAM_BENCH_SETTLE_MS'] ?? 30_000);
const SAMPLES = 5;
const SAMPLE_GAP_MS = 2_000;

interface Reading {
  readonly rssMiB: number;
  readonly heapMiB: number;
  readonly cpuSeconds: number;
}

async function read(manager: ControllerProcess): Promise<Reading> {
  const [usage, metrics] = await Promise.all([
    processUsage(manager.pid() ?? Number.NaN),
    fetch(`http://127.0.0.1:${String(manager.metricsPort)}/metrics`).then((response) => response.text()),
  ]);
  return { ...usage, heapMiB: (sampleValues(metrics, 'nodejs_heap_size_used_bytes')[0] ?? Number.NaN) / 1024 / 1024 };
}

async function main(): Promise<void> {
  // Our controllers run here as local processes: no image of ours is built.
  const bed = await startBed({ log: pino({ level: 'warn' }), binaries: await resolveBinaries(process.env), ourImages: [] });
  const running: { label: string; controllers: string; nodeOptions: string; nodeArgs: string; extraEnv: string; manager: ControllerProcess }[] = [];
  try {
    await installCrds(bed.info);
    await installOam(bed.info);
    const variants = BUILDS.flatMap((build) =>
      SETS.flatMap((controllers) =>
        NODE_OPTIONS.flatMap((nodeOptions) => NODE_ARGS.flatMap((nodeArgs) => EXTRA_ENV.map((extraEnv) => ({ build, controllers, nodeOptions, nodeArgs, extraEnv })))),
      ),
    );
    for (const { build, controllers, nodeOptions, nodeArgs, extraEnv } of variants) {
      const extra = Object.fromEntries(extraEnv.split(' ').filter((pair) => pair.includes('=')).map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]));
      const env = { ...extra, CONTROLLERS: controllers, LEADER_ELECTION: 'false', NODE_OPTIONS: nodeOptions };
      const args = nodeArgs.split(' ').filter((arg) => arg !== '');
      const manager = await startControllerProcess({ bed: bed.info, name: 'manager', distDir: build.dir, logLevel: 'warn', env, nodeArgs: args });
      running.push({ label: build.label, controllers, nodeOptions, nodeArgs, extraEnv, manager });
    }
    for (const { manager } of running) await waitControllerReady(manager, 180_000);
    await sleep(SETTLE_MS);
    const readings: Reading[][] = running.map(() => []);
    for (let sample = 0; sample < SAMPLES; sample += 1) {
      if (sample > 0) await sleep(SAMPLE_GAP_MS);
      for (const [index, { manager }] of running.entries()) readings[index]?.push(await read(manager));
    }
    const load = (await readFile('/proc/loadavg', 'utf8')).split(' ').slice(0, 3).join(' ');
    const rows = running.map(({ label, controllers, nodeOptions, nodeArgs, extraEnv }, index) => {
      const taken = readings[index] ?? [];
      const cpu = (taken.at(-1)?.cpuSeconds ?? Number.NaN) - (taken[0]?.cpuSeconds ?? Number.NaN);
      return `| ${label} | ${controllers} | ${nodeOptions} | ${nodeArgs} | ${extraEnv} | ${median(taken.map((one) => one.rssMiB)).toFixed(1)} | ${median(taken.map((one) => one.heapMiB)).toFixed(1)} | ${cpu.toFixed(2)} |`;
    });
    console.log(
      [
        '',
        `Idle managers side by side, ${String(SETTLE_MS / 1000)} s after all were ready (load average ${load}):`,
        '',
        '| build | CONTROLLERS | NODE_OPTIONS | node arguments | environment | RSS MiB | V8 heap used MiB | CPU s over 8 s |',
        '| --- | --- | --- | --- | --- | --- | --- | --- |',
        ...rows,
      ].join('\n'),
    );
  } finally {
    for (const { manager } of running) await manager.stop();
    await bed.stop();
  }
}

await main();
