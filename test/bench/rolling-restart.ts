// `npm run bench:rolling`: what a rolling restart of a ZooKeeper ensemble costs its clients on the bed (real
// ZooKeeper, real control plane), done three ways: the StatefulSet's native RollingUpdate (highest ordinal first,
// wherever the leader is); the rolling trait restarting the leader last in place, so the others elect
// (leaderHandover Election); and the rolling trait handing leadership over by reconfig first (leaderHandover
// Reconfigure). At 5 and 3 members, several times each in one run, with a client writing throughout. Each roll is a
// template change (zoo.cfg tickTime). It prints the median and spread of the no-leader time (srvr polled), leader
// elections (new epochs), leader changes, writes refused (failed or unanswered) and lost, the longest write gap and
// the roll's duration, and the ratio of each of ours to native. Rolls run one at a time, so each has the machine to
// itself.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { pino } from 'pino';
import { repoRoot } from '../src/bed/paths.js';
import { resolveBinaries, startBed } from '../src/bed/index.js';
import {
  bedWorkloadSpec,
  installCrds,
  isReady,
  memberPodSource,
  PodHistory,
  startControllerProcess,
  waitControllerReady,
  waitFor,
  WorkloadClient,
  type ControllerProcess,
} from '../src/controllers/index.js';
import { probeEnsemble, RollingClient } from '../e2e/rolling-fixtures.js';
import { comparisonTable, type Figure, type Sample } from './figures.js';

const REPS = Number(process.env['ZKOAM_BENCH_REPS'] ?? 5);
const SIZES = (process.env['ZKOAM_BENCH_SIZES'] ?? '5,3').split(',').map(Number);
const NAMESPACE = 'bench-rolling';
const ROLL_TIMEOUT_MS = 600_000;
const HANDOVER = 'handover (ours)';
const ELECTION = 'leader last, election (ours)';
const NATIVE = 'native RollingUpdate';
const METHODS = [HANDOVER, ELECTION, NATIVE] as const;
type Method = (typeof METHODS)[number];
const LEADER_HANDOVER = { [HANDOVER]: 'Reconfigure', [ELECTION]: 'Election' } as const;

const FIGURES: readonly Figure[] = [
  { key: 'noLeaderMs', label: 'no-leader time (ms)', digits: 0 },
  { key: 'elections', label: 'leader elections', digits: 0 },
  { key: 'leaderChanges', label: 'leader changes', digits: 0 },
  { key: 'refused', label: 'writes refused', digits: 0 },
  { key: 'lost', label: 'writes lost', digits: 0 },
  { key: 'longestGapMs', label: 'longest write gap (ms)', digits: 0 },
  { key: 'seconds', label: 'roll (s)', digits: 0 },
  { key: 'leaderLast', label: 'leader restarted last (1 = yes)', digits: 0 },
];

function say(line: string): void {
  process.stderr.write(`[bench:rolling] ${line}\n`);
}

function workloadName(method: Method, size: number): string {
  const prefix = { [HANDOVER]: 'handover', [ELECTION]: 'election', [NATIVE]: 'native' }[method];
  return `${prefix}-${String(size)}`;
}

async function waitSettled(client: WorkloadClient, name: string, size: number): Promise<string> {
  const workload = await waitFor(
    `${name}: Ready, ${String(size)} synced members and a leader`,
    () => client.get(NAMESPACE, name),
    (w) => isReady(w) && w.status?.leader !== undefined && w.status.members?.length === size && w.status.members.every((member) => member.synced),
    ROLL_TIMEOUT_MS,
  );
  return workload.status?.leader ?? '';
}

/** One roll of one workload: a new tickTime, then every pod restarted once and the ensemble settled again. */
async function roll(client: WorkloadClient, traits: RollingClient, method: Method, size: number, tickTime: number): Promise<Sample> {
  const name = workloadName(method, size);
  const leader = await waitSettled(client, name, size);
  const history = new PodHistory(memberPodSource(client, NAMESPACE, name), size);
  await history.start();
  const probe = await probeEnsemble(client, NAMESPACE, name);
  const started = performance.now();
  await client.patch(NAMESPACE, name, { spec: { config: { tickTime } } });
  await waitFor(`${name}: every pod restarted`, async () => history.restarts.length, (count) => count >= size, ROLL_TIMEOUT_MS);
  if (method !== NATIVE) {
    await waitFor(`${name}: the trait Completed`, () => traits.get(NAMESPACE, name), (t) => t.status?.phase === 'Completed', ROLL_TIMEOUT_MS);
  }
  await waitSettled(client, name, size);
  const seconds = (performance.now() - started) / 1000;
  await history.stop();
  const { leaders, writes } = await probe.stop();
  return {
    noLeaderMs: leaders.noLeaderMs,
    elections: leaders.elections,
    leaderChanges: leaders.leaderChanges,
    refused: writes.unacknowledged,
    lost: writes.lost.length,
    longestGapMs: writes.longestGapMs,
    seconds,
    leaderLast: history.order().at(-1) === leader ? 1 : 0,
  };
}

async function main(): Promise<void> {
  say('building the controllers (npm run build)');
  execFileSync(join(repoRoot(), 'node_modules/.bin/turbo'), ['run', 'build', '--output-logs=errors-only'], { cwd: repoRoot(), stdio: 'inherit' });
  const bed = await startBed({ log: pino({ level: 'warn' }), binaries: await resolveBinaries(process.env) });
  const controllers: ControllerProcess[] = [];
  try {
    await installCrds(bed.info);
    controllers.push(await startControllerProcess({ bed: bed.info, name: 'workload', logLevel: 'warn' }));
    controllers.push(await startControllerProcess({ bed: bed.info, name: 'rolling', logLevel: 'warn' }));
    for (const controller of controllers) await waitControllerReady(controller);
    const client = new WorkloadClient(bed.info);
    const traits = new RollingClient(bed.info);
    await client.createNamespace(NAMESPACE);
    const samples = new Map<string, Sample[]>();
    for (const size of SIZES) {
      say(`${String(size)} members: creating ${METHODS.map((method) => workloadName(method, size)).join(', ')}`);
      for (const method of METHODS) {
        const name = workloadName(method, size);
        await client.create(NAMESPACE, name, bedWorkloadSpec({ replicas: size }));
        if (method !== NATIVE) await traits.create(NAMESPACE, name, name, { leaderHandover: LEADER_HANDOVER[method] });
      }
      for (let rep = 1; rep <= REPS; rep += 1) {
        for (const method of METHODS) {
          const sample = await roll(client, traits, method, size, 2_000 + rep * 100);
          samples.set(`${method}/${String(size)}`, [...(samples.get(`${method}/${String(size)}`) ?? []), sample]);
          say(`${method}, ${String(size)} members, roll ${String(rep)}: ${JSON.stringify(sample)}`);
        }
      }
    }
    console.log(
      [
        '',
        `Rolling restart on the bed: ${String(REPS)} template rolls per method and size, one at a time, a client writing throughout; median (min-max).`,
        '',
        ...comparisonTable({
          figures: FIGURES,
          sizes: SIZES,
          sizeHeader: 'members',
          columns: METHODS,
          baseline: NATIVE,
          samples: (method, size) => samples.get(`${method}/${String(size)}`) ?? [],
        }),
      ].join('\n'),
    );
  } finally {
    for (const controller of controllers) await controller.stop();
    await bed.stop();
  }
}

await main();
