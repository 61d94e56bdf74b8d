// `npm run bench`: our workload controller (its bundle) beside the pravega ZooKeeper operator, on one fresh bed, in
// the same run. For bursts of 1, 100 and 1,000 ensembles per operator (each operator its own namespace per burst,
// equivalent 3-member specs, pods unschedulable so only the controllers are measured), ZKOAM_BENCH_REPS repetitions
// (3 by default), it prints one table: apply -> StatefulSet p50/p99, time until every ensemble carries a status,
// the longest gap between two Lease renewals of ours during the burst, reconciles per second and API writes per minute
// (Leases excluded) when idle, RSS and CPU seconds, each as the median over the repetitions with its spread, ours
// beside the peer's and their ratio.
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { AppsV1Api, CoordinationV1Api, CoreV1Api, Watch } from '@kubernetes/client-node';
import { pino } from 'pino';
import { repoRoot } from '../src/bed/paths.js';
import { resolveBinaries, startBed, type BedInfo } from '../src/bed/index.js';
import { auditEntriesSince, auditLogSize, CONTROLLER_NAMESPACE, installCrds, waitFor } from '../src/controllers/index.js';
import { comparisonTable, percentile, ratio, type Figure, type Sample } from './figures.js';
import { peerBuild, startOurs, startPeer, type BenchedOperator } from './operators.js';
import { PooledKubeConfig } from '@zk-oam/runtime';

const REPS = Number(process.env['ZKOAM_BENCH_REPS'] ?? 3);
/** `1,100,1000:1`: burst sizes, each with its own number of repetitions after a colon (ZKOAM_BENCH_REPS otherwise). */
const RUNS = (process.env['ZKOAM_BENCH_SIZES'] ?? '1,100,1000').split(',').map((entry) => {
  const [size, reps] = entry.split(':');
  return { size: Number(size), reps: reps === undefined ? REPS : Number(reps) };
});
const SIZES = RUNS.map((run) => run.size);
const IDLE_WINDOW_MS = Number(process.env['ZKOAM_BENCH_IDLE_MS'] ?? 60_000);
const SETTLE_MS = 20_000;
/** A burst's namespace counts as settled once nobody (operator, kube-controller-manager, scheduler) writes in it for this long. */
const QUIET_MS = 10_000;
const CONCURRENCY = 16;
/**
 * kube-controller-manager's request rate on this bed. At its default (20/s) it needed about ten minutes for the 3,000
 * pods and claims of 1,000 ensembles, and as long again for the namespace's deletion, before the next repetition.
 */
const CONTROLLER_MANAGER_API_QPS = 200;
const WRITE_VERBS = new Set(['create', 'update', 'patch', 'delete', 'deletecollection']);

function say(line: string): void {
  process.stderr.write(`[bench] ${line}\n`);
}

async function procStat(pid: number | undefined): Promise<{ rssMiB: number; cpuSeconds: number }> {
  const [status, stat] = await Promise.all([readFile(`/proc/${String(pid)}/status`, 'utf8'), readFile(`/proc/${String(pid)}/stat`, 'utf8')]);
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return { rssMiB: Number(/^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1]) / 1024, cpuSeconds: ticks / 100 };
}

async function reconcileTotal(operator: BenchedOperator): Promise<number> {
  const text = await (await fetch(operator.metricsUrl)).text();
  return text
    .split('\n')
    .filter((line) => line.startsWith('controller_runtime_reconcile_total'))
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
}

/** The live heap each runtime reports (Node's V8 heap in use, Go's heap in use): RSS less what is only reserved. */
async function heapInUseMiB(operator: BenchedOperator): Promise<number> {
  const text = await (await fetch(operator.metricsUrl)).text();
  const line = text.split('\n').find((candidate) => /^(nodejs_heap_size_used_bytes|go_memstats_heap_inuse_bytes) /.test(candidate));
  return line === undefined ? Number.NaN : Number(line.slice(line.lastIndexOf(' ') + 1)) / 1024 / 1024;
}

/** Cumulative counts of our leader-election renew intervals by bucket bound (none for the peer, which never renews). */
async function renewBuckets(operator: BenchedOperator): Promise<Map<number, number>> {
  const text = await (await fetch(operator.metricsUrl)).text();
  const buckets = new Map<number, number>();
  for (const match of text.matchAll(/^leader_election_renew_interval_seconds_bucket\{[^}]*le="([^"]+)"[^}]*\} (\S+)$/gm)) {
    buckets.set(match[1] === '+Inf' ? Infinity : Number(match[1]), Number(match[2]));
  }
  return buckets;
}

/** The bucket bound under which every renew interval between two readings fell: the longest renew gap, rounded up. */
function longestRenewGap(before: Map<number, number>, after: Map<number, number>): number {
  const bounds = [...after.keys()].sort((a, b) => a - b);
  const total = (after.get(Infinity) ?? 0) - (before.get(Infinity) ?? 0);
  if (total === 0) return Number.NaN;
  return bounds.find((bound) => (after.get(bound) ?? 0) - (before.get(bound) ?? 0) === total) ?? Number.NaN;
}

async function writesSince(bed: BedInfo, offset: number, user: string): Promise<number> {
  const entries = await auditEntriesSince(bed, offset);
  return entries.filter((entry) => entry.user.username === user && WRITE_VERBS.has(entry.verb) && entry.objectRef?.resource !== 'leases').length;
}

/**
 * The pods the StatefulSet controller creates for pods that never schedule: all replicas under the Parallel policy,
 * only the first under OrderedReady (it waits for that one to be Ready).
 */
async function podsToCreate(apps: AppsV1Api, namespace: string): Promise<{ statefulSets: number; pods: number }> {
  const { items } = await apps.listNamespacedStatefulSet({ namespace });
  const pods = items.reduce((sum, set) => sum + (set.spec?.podManagementPolicy === 'Parallel' ? (set.spec.replicas ?? 1) : 1), 0);
  return { statefulSets: items.length, pods };
}

/**
 * Waits until a burst's aftermath is over: kube-controller-manager still creates claims and pods for minutes after a
 * large burst (its own client is rate-limited), and each of its status updates wakes the operators. Idle figures are
 * taken only once every StatefulSet has the pods it will create (its claims come first) and
 * no one but the operator (the peer rewrites its objects every 30 s by design) has written in the namespace for
 * QUIET_MS. At 1,000 ensembles the controller manager paused for more than QUIET_MS between batches.
 */
async function waitQuiet(bed: BedInfo, kubeConfig: PooledKubeConfig, namespace: string, size: number, operatorUser: string): Promise<number> {
  const core = kubeConfig.makeApiClient(CoreV1Api);
  const apps = kubeConfig.makeApiClient(AppsV1Api);
  const started = performance.now();
  await waitFor(
    `every pod of the ${String(size)} StatefulSets in ${namespace}`,
    async () => ({ pods: (await core.listNamespacedPod({ namespace })).items.length, expected: await podsToCreate(apps, namespace) }),
    ({ pods, expected }) => expected.statefulSets >= size && pods >= expected.pods,
    1_800_000,
    2_000,
  );
  await waitFor(
    `no writes in ${namespace} for ${String(QUIET_MS / 1000)} s`,
    async () => {
      const offset = await auditLogSize(bed);
      await sleep(QUIET_MS);
      const entries = await auditEntriesSince(bed, offset);
      return entries.filter((entry) => entry.objectRef?.namespace === namespace && WRITE_VERBS.has(entry.verb) && entry.user.username !== operatorUser).length;
    },
    (writes) => writes === 0,
    1_800_000,
    0,
  );
  return (performance.now() - started) / 1000;
}

/** Records when each StatefulSet of `namespace` is first seen on a watch. */
async function watchStatefulSets(kubeConfig: PooledKubeConfig, namespace: string): Promise<{ seen: Map<string, number>; stop: () => void }> {
  const seen = new Map<string, number>();
  const request = await new Watch(kubeConfig).watch(
    `/apis/apps/v1/namespaces/${namespace}/statefulsets`,
    {},
    (type: string, object: { metadata?: { name?: string } }) => {
      const name = object.metadata?.name;
      if (type === 'ADDED' && name !== undefined && !seen.has(name)) seen.set(name, performance.now());
    },
    () => undefined,
  );
  return { seen, stop: () => request.abort() };
}

async function burst(operator: BenchedOperator, namespace: string, size: number): Promise<Map<string, number>> {
  const created = new Map<string, number>();
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < size) {
      const name = `zk-${String(next++).padStart(4, '0')}`;
      await operator.create(namespace, name);
      created.set(name, performance.now());
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, size) }, worker));
  return created;
}

/** One burst of `size` ensembles for one operator, measured until idle; its namespace is deleted afterwards. */
async function run(bed: BedInfo, kubeConfig: PooledKubeConfig, operator: BenchedOperator, size: number, namespace: string): Promise<Sample> {
  const core = kubeConfig.makeApiClient(CoreV1Api);
  await core.createNamespace({ body: { metadata: { name: namespace } } });
  const watch = await watchStatefulSets(kubeConfig, namespace);
  const before = await procStat(operator.pid());
  const renewsBefore = await renewBuckets(operator);
  const started = performance.now();
  const created = await burst(operator, namespace, size);
  await waitFor(`${String(size)} StatefulSets of ${operator.name}`, () => Promise.resolve(watch.seen.size), (count) => count >= size, 1_800_000, 200);
  watch.stop();
  const latencies = [...created].map(([name, at]) => (watch.seen.get(name) ?? Number.NaN) - at);
  await waitFor(`${String(size)} ensembles observed by ${operator.name}`, () => operator.observed(namespace), (count) => count >= size, 1_800_000, 1_000);
  const observedS = (performance.now() - started) / 1000;
  const busy = await procStat(operator.pid());
  const renewGapS = longestRenewGap(renewsBefore, await renewBuckets(operator));
  const settledS = await waitQuiet(bed, kubeConfig, namespace, size, operator.user);
  const reconcilesBefore = await reconcileTotal(operator).catch(() => Number.NaN);
  const auditOffset = await auditLogSize(bed);
  const idleFrom = await procStat(operator.pid());
  await sleep(IDLE_WINDOW_MS);
  const idleTo = await procStat(operator.pid());
  const reconciles = (await reconcileTotal(operator).catch(() => Number.NaN)) - reconcilesBefore;
  const writes = await writesSince(bed, auditOffset, operator.user);
  await core.deleteNamespace({ name: namespace });
  await waitFor(`namespace ${namespace} gone`, () => core.readNamespace({ name: namespace }).then(() => false, () => true), (gone) => gone, 1_800_000, 2_000);
  return {
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    observedS,
    burstCpuS: busy.cpuSeconds - before.cpuSeconds,
    renewGapS,
    settledS,
    idleReconcilesPerS: reconciles / (IDLE_WINDOW_MS / 1000),
    idleWritesPerMin: writes / (IDLE_WINDOW_MS / 60_000),
    idleCpuS: idleTo.cpuSeconds - idleFrom.cpuSeconds,
    rssMiB: idleTo.rssMiB,
    heapMiB: await heapInUseMiB(operator),
  };
}

const FIGURES: readonly Figure[] = [
  { key: 'p50Ms', label: 'apply -> StatefulSet p50 (ms)', digits: 0 },
  { key: 'p99Ms', label: 'apply -> StatefulSet p99 (ms)', digits: 0 },
  { key: 'observedS', label: 'all observed (s)', digits: 1 },
  { key: 'burstCpuS', label: 'CPU during the burst (s)', digits: 1 },
  { key: 'renewGapS', label: 'longest Lease renew gap in the burst, bucket bound (s)', digits: 1 },
  { key: 'settledS', label: 'namespace quiet after (s)', digits: 0 },
  { key: 'idleReconcilesPerS', label: 'idle reconciles/s', digits: 2 },
  { key: 'idleWritesPerMin', label: 'idle API writes/min (no Leases)', digits: 1 },
  { key: 'idleCpuS', label: `idle CPU per ${String(IDLE_WINDOW_MS / 1000)} s (s)`, digits: 2 },
  { key: 'rssMiB', label: 'RSS when idle (MiB)', digits: 0 },
  { key: 'heapMiB', label: 'heap in use when idle (MiB)', digits: 0 },
];

function table(results: Map<string, Sample[]>, ours: string, peer: string, zero: { ours: Sample; peer: Sample }): string {
  const rows = comparisonTable({
    figures: FIGURES,
    sizes: SIZES,
    sizeHeader: 'ensembles',
    columns: [ours, peer],
    baseline: peer,
    samples: (column, size) => results.get(`${column}/${String(size)}`) ?? [],
  });
  const zeroRows = ['idleCpuS', 'rssMiB'].map((key) => {
    const figure = FIGURES.find((candidate) => candidate.key === key);
    const a = zero.ours[key] ?? Number.NaN;
    const b = zero.peer[key] ?? Number.NaN;
    return `| ${figure?.label ?? key} | 0 | ${a.toFixed(figure?.digits ?? 1)} | ${b.toFixed(figure?.digits ?? 1)} | ${ratio(a, b)} |`;
  });
  rows.splice(2, 0, ...zeroRows);
  return rows.join('\n');
}

async function idleAtZero(operator: BenchedOperator): Promise<Sample> {
  const from = await procStat(operator.pid());
  await sleep(IDLE_WINDOW_MS);
  const to = await procStat(operator.pid());
  return { idleCpuS: to.cpuSeconds - from.cpuSeconds, rssMiB: to.rssMiB };
}

/** The 1-minute load average every 10 s, from now until `stop()`: the run's mean and peak. */
function sampleLoad(): { stop: () => { mean: number; max: number } } {
  const samples: number[] = [];
  const take = (): void => void readFile('/proc/loadavg', 'utf8').then((text) => samples.push(Number(text.split(' ')[0])));
  take();
  const timer = setInterval(take, 10_000);
  return {
    stop: () => {
      clearInterval(timer);
      return { mean: samples.reduce((sum, value) => sum + value, 0) / samples.length, max: Math.max(...samples) };
    },
  };
}

/** Our controller's Lease: one holder for the whole run, and no transition, means it never lost leadership. */
async function ourLease(kubeConfig: PooledKubeConfig): Promise<{ holder: string; transitions: number }> {
  const lease = await kubeConfig.makeApiClient(CoordinationV1Api).readNamespacedLease({ namespace: CONTROLLER_NAMESPACE, name: 'zk-oam-workload' });
  return { holder: lease.spec?.holderIdentity ?? '', transitions: lease.spec?.leaseTransitions ?? 0 };
}

async function main(): Promise<void> {
  say('building the controllers and the peer (test/peer/build.sh)');
  execFileSync(join(repoRoot(), 'node_modules/.bin/turbo'), ['run', 'build', '--output-logs=errors-only'], { cwd: repoRoot(), stdio: 'inherit' });
  const peerDir = execFileSync('bash', [join(repoRoot(), 'test/peer/build.sh')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim().split('\n').at(-1) ?? '';
  const bed = await startBed({
    log: pino({ level: 'warn' }),
    binaries: await resolveBinaries(process.env),
    controllerManagerApiQps: CONTROLLER_MANAGER_API_QPS,
  });
  const operators: BenchedOperator[] = [];
  try {
    await installCrds(bed.info);
    const ours = await startOurs(bed.info);
    operators.push(ours);
    const peer = await startPeer(bed.info, await peerBuild(peerDir), join(bed.info.dir, 'logs', 'peer-operator.log'));
    operators.push(peer);
    const kubeConfig = new PooledKubeConfig();
    kubeConfig.loadFromFile(bed.info.kubeconfig);
    await sleep(SETTLE_MS);
    say(`both operators up; idle with no ensemble for ${String(IDLE_WINDOW_MS / 1000)} s`);
    const load = sampleLoad();
    const leaseBefore = await ourLease(kubeConfig);
    const [zeroOurs, zeroPeer] = await Promise.all([idleAtZero(ours), idleAtZero(peer)]);
    const results = new Map<string, Sample[]>();
    for (const { size, reps } of RUNS) {
      for (let rep = 1; rep <= reps; rep += 1) {
        for (const [index, operator] of [ours, peer].entries()) {
          const sample = await run(bed.info, kubeConfig, operator, size, `bench-${index === 0 ? 'ours' : 'peer'}-${String(size)}-${String(rep)}`);
          results.set(`${operator.name}/${String(size)}`, [...(results.get(`${operator.name}/${String(size)}`) ?? []), sample]);
          say(`${operator.name} ${String(size)} ensembles, repetition ${String(rep)}: ${JSON.stringify(sample)}`);
        }
      }
    }
    const { mean, max } = load.stop();
    const leaseAfter = await ourLease(kubeConfig);
    const kept = leaseAfter.holder === leaseBefore.holder && leaseAfter.transitions === leaseBefore.transitions;
    console.log(
      [
        '',
        `Benchmark: ${RUNS.map((run) => `${String(run.reps)} repetition(s) at ${String(run.size)}`).join(', ')}; median (min-max); pods unschedulable (nodeSelector ${'zkoam.dev/no-such-node'}), so the controllers alone are measured.`,
        `kube-controller-manager at ${String(CONTROLLER_MANAGER_API_QPS)} requests/s (its default is 20), so the pods of a burst are created sooner; both operators share it.`,
        `Machine: ${String((await readFile('/proc/cpuinfo', 'utf8')).match(/^processor/gm)?.length ?? '?')} cores; 1-minute load average during the run: mean ${mean.toFixed(2)}, peak ${max.toFixed(2)}.`,
        `Our Lease: ${kept ? 'kept by one process for the whole run' : 'LOST during the run'} (holder ${leaseBefore.holder} -> ${leaseAfter.holder}, transitions ${String(leaseBefore.transitions)} -> ${String(leaseAfter.transitions)}).`,
        '',
        table(results, ours.name, peer.name, { ours: zeroOurs, peer: zeroPeer }),
      ].join('\n'),
    );
  } finally {
    for (const operator of operators) await operator.stop();
    await bed.stop();
  }
}

await main();
