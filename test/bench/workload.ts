// Benchmark of the workload controller on a fresh bed (run: `npm run bench:workload`): time from applying a
// 3-member workload to its StatefulSet and to Ready, then the controller's resident memory with 1, 100 and 1000
// workloads whose pods never schedule (a nodeSelector no node matches), so only the control plane is loaded.
import { readFile } from 'node:fs/promises';
import { AppsV1Api, CustomObjectsApi, KubeConfig } from '@kubernetes/client-node';
import { ZOOKEEPER_WORKLOAD } from '@zk-oam/apis';
import { pino } from 'pino';
import { z } from 'zod';
import { resolveBinaries, startBed } from '../src/bed/index.js';
import {
  bedWorkloadSpec,
  installCrds,
  isReady,
  startControllerProcess,
  waitControllerReady,
  waitFor,
  WorkloadClient,
  type ControllerProcess,
} from '../src/controllers/index.js';

const namespace = 'bench';
const SIZES = [1, 100, 1000] as const;
const CREATE_CONCURRENCY = 8;

const listSchema = z.object({ items: z.array(z.looseObject({ status: z.looseObject({ phase: z.string().optional() }).optional() })) });

async function rssMiB(controller: ControllerProcess): Promise<number> {
  const status = await readFile(`/proc/${String(controller.pid())}/status`, 'utf8');
  const kib = Number(/^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1] ?? Number.NaN);
  return Math.round((kib / 1024) * 10) / 10;
}

async function timeToReady(client: WorkloadClient, apps: AppsV1Api): Promise<{ statefulSetMs: number; readyMs: number }> {
  const started = Date.now();
  await client.create(namespace, 'zk', bedWorkloadSpec());
  await waitFor('the StatefulSet', () => apps.readNamespacedStatefulSet({ namespace, name: 'zk' }), () => true, 60_000, 50);
  const statefulSetMs = Date.now() - started;
  await waitFor('Ready', () => client.get(namespace, 'zk'), isReady, 420_000, 250);
  return { statefulSetMs, readyMs: Date.now() - started };
}

async function createIdle(client: WorkloadClient, from: number, to: number): Promise<void> {
  const spec = bedWorkloadSpec({ replicas: 1, placement: { nodeSelector: { 'zkoam.dev/no-such-node': 'true' } } });
  let next = from;
  const worker = async (): Promise<void> => {
    while (next < to) {
      const index = next++;
      await client.create(namespace, `idle-${String(index).padStart(4, '0')}`, spec);
    }
  };
  await Promise.all(Array.from({ length: CREATE_CONCURRENCY }, worker));
}

async function observedCount(objects: CustomObjectsApi): Promise<number> {
  const list = listSchema.parse(
    await objects.listNamespacedCustomObject({ group: ZOOKEEPER_WORKLOAD.group, version: ZOOKEEPER_WORKLOAD.version, namespace, plural: ZOOKEEPER_WORKLOAD.plural }),
  );
  return list.items.filter((item) => item.status?.phase !== undefined).length;
}

async function main(): Promise<void> {
  const bed = await startBed({ log: pino({ level: 'warn' }), binaries: await resolveBinaries(process.env) });
  let controller: ControllerProcess | undefined;
  try {
    await installCrds(bed.info);
    controller = await startControllerProcess({ bed: bed.info, name: 'workload', logLevel: 'warn' });
    await waitControllerReady(controller);
    const client = new WorkloadClient(bed.info);
    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromFile(bed.info.kubeconfig);
    const apps = kubeConfig.makeApiClient(AppsV1Api);
    const objects = kubeConfig.makeApiClient(CustomObjectsApi);
    await client.createNamespace(namespace);

    const ensemble = await timeToReady(client, apps);
    console.log(`apply -> StatefulSet created: ${String(ensemble.statefulSetMs)} ms; apply -> Ready (3 members): ${String(ensemble.readyMs)} ms`);
    await client.delete(namespace, 'zk');

    let created = 0;
    for (const size of SIZES) {
      const started = Date.now();
      await createIdle(client, created, size);
      created = size;
      await waitFor(`${String(size)} workloads observed`, () => observedCount(objects), (count) => count >= size, 1_800_000, 2_000);
      const tookS = (Date.now() - started) / 1000;
      console.log(`${String(size)} workloads: all rendered and observed ${tookS.toFixed(1)} s after creation began; controller RSS ${String(await rssMiB(controller))} MiB`);
    }
  } finally {
    await controller?.stop();
    await bed.stop();
  }
}

await main();
