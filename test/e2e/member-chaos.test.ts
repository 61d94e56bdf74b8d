// Member chaos under one workload controller and one scale controller: 20 single-member workloads (each with a scale
// trait) while their ZooKeeper processes are SIGKILLed at random, one at a time, for ZKOAM_CHAOS_SECONDS (60 by
// default, 15 kills; the run used 600). Observation goes over four-letter words only, so the controllers open no
// ZooKeeper session: afterwards every status agrees with srvr, a new workload still becomes Ready, and neither
// process holds more file descriptors, sockets or threads than before. The figures are printed, not asserted.
import { readdir, readlink } from 'node:fs/promises';
import { join } from 'node:path';
import { podOfMember, ZOOKEEPER_PORTS, type ZookeeperWorkload } from '@zk-oam/apis';
import { pause } from '@zk-oam/runtime';
import { fourLetterWord, parseSrvr } from '@zk-oam/zookeeper';
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
import { memberPid, ScaleClient } from './scale-support.js';
import { workerBed } from '../src/worker-bed.js';

const bed = workerBed();
const namespace = `chaos-${Date.now().toString(36)}`;
const WORKLOADS = 20;
const CHAOS_MS = Number(process.env['ZKOAM_CHAOS_SECONDS'] ?? '60') * 1_000;
const KILL_EVERY_MS = 4_000;
/** Beyond the chaos itself: every workload Ready again, and a fresh one created and Ready. */
const SETTLE_BUDGET_MS = 900_000;
const workloads = new WorkloadClient(bed);
const scales = new ScaleClient(bed);
const names = Array.from({ length: WORKLOADS }, (_, index) => `chaos-${String(index)}`);
const controllers: Record<'workload' | 'scale', ControllerProcess | undefined> = { workload: undefined, scale: undefined };

interface Handles {
  fds: number;
  sockets: number;
  threads: number;
}

async function handlesOf(pid: number | undefined): Promise<Handles> {
  if (pid === undefined) throw new Error('the controller is not running');
  const fdDir = `/proc/${String(pid)}/fd`;
  const fds = await readdir(fdDir);
  const targets = await Promise.all(fds.map((fd) => readlink(join(fdDir, fd)).catch(() => '')));
  return { fds: fds.length, sockets: targets.filter((target) => target.startsWith('socket:')).length, threads: (await readdir(`/proc/${String(pid)}/task`)).length };
}

/** Deterministic, so a failing run can be repeated: a linear congruential generator seeded per run and printed. */
function randomFrom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

/**
 * SIGKILLs the workload's member; false when it is already down. Its status can still say Ready for a few seconds
 * after the last kill (on a loaded machine, longer): then its pid file is gone, or names a process that has exited.
 */
async function killMember(workload: string): Promise<boolean> {
  try {
    process.kill(await memberPid(bed, namespace, podOfMember(workload, 1)), 'SIGKILL');
    return true;
  } catch (error) {
    if (error instanceof Error && 'code' in error && (error.code === 'ENOENT' || error.code === 'ESRCH')) return false;
    throw error;
  }
}

async function listWorkloads(): Promise<ZookeeperWorkload[]> {
  return (await workloads.list(namespace)).filter((workload) => names.includes(workload.metadata.name));
}

async function srvrMode(workload: string): Promise<string | undefined> {
  const pod = await workloads.core.readNamespacedPod({ namespace, name: podOfMember(workload, 1) });
  const ip = pod.status?.podIP;
  if (ip === undefined) return undefined;
  return parseSrvr(await fourLetterWord(ip, ZOOKEEPER_PORTS.client, 'srvr', { timeoutMs: 3_000 })).mode;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

describe('member chaos under the workload and scale controllers', () => {
  beforeAll(async () => {
    await installCrds(bed);
    for (const name of ['workload', 'scale'] as const) {
      const started = await startControllerProcess({ bed, name, env: name === 'workload' ? { IDLE_PERIOD_MS: '5000' } : {} });
      controllers[name] = started;
      await waitControllerReady(started);
    }
    await workloads.createNamespace(namespace);
    for (const name of names) {
      await workloads.create(namespace, name, bedWorkloadSpec({ replicas: 1 }));
      await scales.create(namespace, `${name}-scale`, { workloadRef: { name }, replicas: 1 });
    }
    await waitFor(`${String(WORKLOADS)} Ready workloads`, listWorkloads, (all) => all.every((workload) => isReady(workload) && workload.status?.leader !== undefined), 900_000, 5_000);
  });

  afterAll(async () => {
    await workloads.deleteNamespace(namespace);
    for (const controller of Object.values(controllers)) if (controller !== undefined) await stopCleanly(controller);
  });

  it('keeps every status true to ZooKeeper through random member kills, leaking no handle and never wedging', async () => {
    const { workload: workloadController, scale: scaleController } = controllers;
    if (workloadController === undefined || scaleController === undefined) throw new Error('the controllers did not start');
    const before = { workload: await handlesOf(workloadController.pid()), scale: await handlesOf(scaleController.pid()) };
    const reconcilesBefore = { workload: await counterOf(workloadController, 'controller_runtime_reconcile_total'), scale: await counterOf(scaleController, 'controller_runtime_reconcile_total') };
    const seed = Date.now() % 2 ** 31;
    const random = randomFrom(seed);

    const kills: { workload: string; at: number }[] = [];
    /** When each workload's status was seen not Ready, sampled four times a second. */
    const seenNotReady = new Map<string, number[]>(names.map((name) => [name, []]));
    const sampling = new AbortController();
    const sampler = (async (): Promise<void> => {
      while (!sampling.signal.aborted) {
        const now = Date.now();
        for (const workload of await listWorkloads()) if (!isReady(workload)) seenNotReady.get(workload.metadata.name)?.push(now);
        await pause(250, sampling.signal);
      }
    })();

    const end = Date.now() + CHAOS_MS;
    while (Date.now() < end) {
      const ready = (await listWorkloads()).filter(isReady).map((workload) => workload.metadata.name);
      const victim = ready[Math.floor(random() * ready.length)];
      const at = Date.now();
      if (victim !== undefined && (await killMember(victim))) kills.push({ workload: victim, at });
      await pause(KILL_EVERY_MS);
    }
    sampling.abort();
    await sampler;

    const settled = await waitFor(`${String(WORKLOADS)} Ready workloads after the chaos`, listWorkloads, (all) => all.every(isReady), 600_000, 2_000);
    for (const workload of settled) expect(workload.status?.members?.[0]?.role).toBe(await srvrMode(workload.metadata.name));

    const fresh = 'chaos-fresh';
    await workloads.create(namespace, fresh, bedWorkloadSpec({ replicas: 1 }));
    await waitFor('a workload created after the chaos Ready', () => workloads.get(namespace, fresh), isReady, 300_000);
    await workloads.delete(namespace, fresh);

    const after = { workload: await handlesOf(workloadController.pid()), scale: await handlesOf(scaleController.pid()) };
    const lags = kills.flatMap((kill, index) => {
      const nextKill = kills.slice(index + 1).find((later) => later.workload === kill.workload)?.at ?? Number.POSITIVE_INFINITY;
      const seen = seenNotReady.get(kill.workload)?.find((at) => at >= kill.at && at < nextKill);
      return seen === undefined ? [] : [seen - kill.at];
    });
    console.log(
      JSON.stringify({
        seed,
        chaosSeconds: CHAOS_MS / 1_000,
        kills: kills.length,
        killsSeenNotReady: lags.length,
        observationLagMs: { median: median(lags), max: Math.max(...lags) },
        reconciles: {
          workload: (await counterOf(workloadController, 'controller_runtime_reconcile_total')) - reconcilesBefore.workload,
          scale: (await counterOf(scaleController, 'controller_runtime_reconcile_total')) - reconcilesBefore.scale,
        },
        handles: { before, after },
      }),
    );
    expect(kills.length).toBeGreaterThan(0);
    expect(workloadController.running() && scaleController.running()).toBe(true);
    // A leaked socket or native handle per observation would be hundreds here; informer watches and keep-alive
    // connections to the apiserver come and go by a few.
    for (const name of ['workload', 'scale'] as const) {
      expect(after[name].sockets).toBeLessThanOrEqual(before[name].sockets + 8);
      expect(after[name].fds).toBeLessThanOrEqual(before[name].fds + 8);
      expect(after[name].threads).toBeLessThanOrEqual(before[name].threads + 4);
    }
  }, CHAOS_MS + SETTLE_BUDGET_MS);
});
