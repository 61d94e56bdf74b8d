// Benchmark of the controllers' resident memory (run: `npm run bench:memory`): each of the four controllers run from
// its bundle (controllers/<name>/dist/main.mjs, what ships) and from its TypeScript sources through tsx (what the bed
// ran before the bundles), with 1 and with 100 workloads (ZKOAM_BENCH_MEMORY_SIZES; ZKOAM_BENCH_MEMORY_VARIANTS=bundle
// for the bundles alone) whose pods never schedule (a nodeSelector no node matches), so only the controllers and the
// control plane are loaded. Each variant runs alone, the controllers started together, and is measured once every
// workload carries a status and a quiet period has passed.
import { readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { CustomObjectsApi } from '@kubernetes/client-node';
import { ZOOKEEPER_WORKLOAD } from '@zk-oam/apis';
import { pino } from 'pino';
import { z } from 'zod';
import { CONTROLLER_NAMES } from '../src/bed/controller-images.js';
import { resolveBinaries, startBed, type BedInfo } from '../src/bed/index.js';
import {
  bedWorkloadSpec,
  installCrds,
  installOam,
  startControllerProcess,
  waitControllerReady,
  waitFor,
  WorkloadClient,
  type ControllerProcess,
} from '../src/controllers/index.js';
import { PooledKubeConfig } from '@zk-oam/runtime';

const namespace = 'bench-memory';
const SIZES = (process.env['ZKOAM_BENCH_MEMORY_SIZES'] ?? '1,100').split(',').map(Number);
const ALL_VARIANTS = ['source', 'bundle'] as const;
type Variant = (typeof ALL_VARIANTS)[number];
const VARIANTS: readonly Variant[] = ALL_VARIANTS.filter((variant) => (process.env['ZKOAM_BENCH_MEMORY_VARIANTS'] ?? 'source,bundle').split(',').includes(variant));
const SETTLE_MS = Number(process.env['ZKOAM_BENCH_SETTLE_MS'] ?? 20_000);

const listSchema = z.object({ items: z.array(z.looseObject({ status: z.looseObject({ phase: z.string().optional() }).optional() })) });

async function rssMiB(pid: number | undefined): Promise<number> {
  const status = await readFile(`/proc/${String(pid)}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1] ?? Number.NaN) / 1024;
}

async function createIdle(client: WorkloadClient, from: number, to: number): Promise<void> {
  const spec = bedWorkloadSpec({ replicas: 1, placement: { nodeSelector: { 'zkoam.dev/no-such-node': 'true' } } });
  for (let index = from; index < to; index += 1) await client.create(namespace, `idle-${String(index).padStart(4, '0')}`, spec);
}

async function observedCount(objects: CustomObjectsApi): Promise<number> {
  const target = { group: ZOOKEEPER_WORKLOAD.group, version: ZOOKEEPER_WORKLOAD.version, namespace, plural: ZOOKEEPER_WORKLOAD.plural };
  return listSchema.parse(await objects.listNamespacedCustomObject(target)).items.filter((item) => item.status?.phase !== undefined).length;
}

/** Starts the four controllers from `from`, waits until `size` workloads are observed and the quiet period, reads RSS. */
async function measure(bed: BedInfo, objects: CustomObjectsApi, from: Variant, size: number): Promise<Map<string, number>> {
  const running: ControllerProcess[] = [];
  try {
    for (const name of CONTROLLER_NAMES) running.push(await startControllerProcess({ bed, name, from, logLevel: 'warn' }));
    for (const controller of running) await waitControllerReady(controller);
    await waitFor(`${String(size)} workloads observed`, () => observedCount(objects), (count) => count >= size, 1_800_000, 1_000);
    await sleep(SETTLE_MS);
    const rss = new Map<string, number>();
    for (const [index, name] of CONTROLLER_NAMES.entries()) rss.set(name, await rssMiB(running[index]?.pid()));
    return rss;
  } finally {
    for (const controller of running) await controller.stop();
  }
}

async function main(): Promise<void> {
  const bed = await startBed({ log: pino({ level: 'warn' }), binaries: await resolveBinaries(process.env) });
  try {
    await installCrds(bed.info);
    await installOam(bed.info);
    const client = new WorkloadClient(bed.info);
    const kubeConfig = new PooledKubeConfig();
    kubeConfig.loadFromFile(bed.info.kubeconfig);
    const objects = kubeConfig.makeApiClient(CustomObjectsApi);
    await client.createNamespace(namespace);
    const rows: string[] = [];
    let created = 0;
    for (const size of SIZES) {
      await createIdle(client, created, size);
      created = size;
      const results = new Map<string, Map<string, number>>();
      for (const from of VARIANTS) results.set(from, await measure(bed.info, objects, from, size));
      for (const name of CONTROLLER_NAMES) {
        const cells = VARIANTS.map((variant) => (results.get(variant)?.get(name) ?? Number.NaN).toFixed(0));
        const ratio = VARIANTS.length === 2 ? [((results.get('bundle')?.get(name) ?? Number.NaN) / (results.get('source')?.get(name) ?? Number.NaN)).toFixed(2)] : [];
        rows.push(`| ${[name, String(size), ...cells, ...ratio].join(' | ')} |`);
      }
    }
    const header = ['controller', 'workloads', ...VARIANTS.map((variant) => (variant === 'source' ? 'tsx (source)' : 'bundle')), ...(VARIANTS.length === 2 ? ['bundle / tsx'] : [])];
    console.log(['', `RSS in MiB, ${String(SETTLE_MS / 1000)} s after every workload was observed:`, '', `| ${header.join(' | ')} |`, `|${' --- |'.repeat(header.length)}`, ...rows].join('\n'));
  } finally {
    await bed.stop();
  }
}

await main();
