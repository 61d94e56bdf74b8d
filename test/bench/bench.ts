// `npm run bench`: our workload controller (its bundle) beside the pravega ZooKeeper operator, on one fresh bed, in
// the same run; then our whole install, the four controllers as separate processes and combined in the manager's
// (ZKOAM_BENCH_INSTALLS, `separate,combined` by default; empty for none), each alone on the bed in its turn, with one
// replica per Deployment as pravega's default runs, and the idle figures with the standbys of a second replica beside
// (started after each burst, so that the one replica's burst is measured alone, as pravega's). For bursts of 1, 100
// and 1,000 ensembles per operator (each operator its own namespace per burst,
// equivalent 3-member specs, pods unschedulable so only the controllers are measured), ZKOAM_BENCH_REPS repetitions
// (3 by default), it prints one table: apply -> StatefulSet p50/p99, time until every ensemble carries a status (seen on a watch),
// reconciles until then, the longest gap between two Lease renewals of ours during the burst, its API writes (of a status, Events; by verb and resource on stderr) until the namespace is quiet, reconciles per second and API writes per minute
// (Leases excluded) when idle, RSS and CPU seconds, each as the median over the repetitions with its spread, ours
// beside the peer's and their ratio. ZKOAM_BENCH_CPU_PROF=<dir> writes the CPU profile of our workload controller and of each
// leading process of our installs there;
// ZKOAM_BENCH_NODE_ARGS runs it with other node arguments than the images' (`--max-opt=2`), empty for none.
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { AppsV1Api, CoordinationV1Api, CoreV1Api } from '@kubernetes/client-node';
import { pino } from 'pino';
import { repoRoot } from '../src/bed/paths.js';
import { resolveBinaries, startBed, type BedInfo } from '../src/bed/index.js';
import { auditEntriesSince, auditLogSize, CONTROLLER_NAMESPACE, installCrds, installOam, waitFor } from '../src/controllers/index.js';
import { comparisonTable, percentile, ratio, type Figure, type Sample } from './figures.js';
import { untilSeen, watchFirstSeen, type FirstSeen } from './first-seen.js';
import { processUsage, type ProcessUsage } from './process-usage.js';
import { applyBurst, peerBuild, startInstall, startOurs, startPeer, watchObserved, type BenchedOperator } from './operators.js';
import type { ControllerInstall } from '../src/controllers/install.js';
import { PooledKubeConfig } from '@zk-oam/runtime';

const REPS = Number(process.env['ZKOAM_BENCH_REPS'] ?? 3);
/** `1,100,1000:1`: burst sizes, each with its own number of repetitions after a colon (ZKOAM_BENCH_REPS otherwise). */
const RUNS = (process.env['ZKOAM_BENCH_SIZES'] ?? '1,100,1000').split(',').map((entry) => {
  const [size, reps] = entry.split(':');
  return { size: Number(size), reps: reps === undefined ? REPS : Number(reps) };
});
const SIZES = RUNS.map((run) => run.size);
const IDLE_WINDOW_MS = Number(process.env['ZKOAM_BENCH_IDLE_MS'] ?? 60_000);
const INSTALLS: readonly ControllerInstall[] = (['separate', 'combined'] as const).filter((install) =>
  (process.env['ZKOAM_BENCH_INSTALLS'] ?? 'separate,combined').split(',').includes(install),
);
/** A directory for the CPU profiles of our processes' whole runs (Node's `--cpu-prof`), each written as its process stops. */
const CPU_PROFILE_DIR = process.env['ZKOAM_BENCH_CPU_PROF'];
/** Node's arguments for our workload controller, split at spaces, in place of the images' (ZKOAM_BENCH_NODE_ARGS; `` for none). */
const NODE_ARGS = process.env['ZKOAM_BENCH_NODE_ARGS']?.split(' ').filter((arg) => arg !== '');
const PROFILE_OPTIONS = CPU_PROFILE_DIR === undefined ? {} : { cpuProfileDir: CPU_PROFILE_DIR };
const OURS_OPTIONS = { ...PROFILE_OPTIONS, ...(NODE_ARGS === undefined ? {} : { nodeArgs: NODE_ARGS }) };
const SETTLE_MS = 20_000;
/** A burst's namespace counts as settled once nobody (operator, kube-controller-manager, scheduler) writes in it for this long. */
const QUIET_MS = 10_000;
/**
 * kube-controller-manager's request rate on this bed. At its default (20/s) it needed about ten minutes for the 3,000
 * pods and claims of 1,000 ensembles, and as long again for the namespace's deletion, before the next repetition.
 */
const CONTROLLER_MANAGER_API_QPS = 200;
const WRITE_VERBS = new Set(['create', 'update', 'patch', 'delete', 'deletecollection']);

function say(line: string): void {
  process.stderr.write(`[bench] ${line}\n`);
}

async function procStat(pids: readonly number[]): Promise<ProcessUsage> {
  const each = await Promise.all(pids.map(processUsage));
  return { rssMiB: each.reduce((sum, one) => sum + one.rssMiB, 0), cpuSeconds: each.reduce((sum, one) => sum + one.cpuSeconds, 0) };
}

/** Every series of `metric` on the operator's endpoints, summed. */
async function metricTotal(operator: BenchedOperator, metric: RegExp): Promise<number> {
  const texts = await Promise.all(operator.metricsUrls.map(async (url) => (await fetch(url)).text()));
  const lines = texts.flatMap((text) => text.split('\n').filter((line) => metric.test(line)));
  return lines.length === 0 ? Number.NaN : lines.reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
}

async function reconcileTotal(operator: BenchedOperator): Promise<number> {
  return metricTotal(operator, /^controller_runtime_reconcile_total[{ ]/);
}

/** The live heap each runtime reports (Node's V8 heap in use, Go's heap in use): RSS less what is only reserved. */
async function heapInUseMiB(operator: BenchedOperator): Promise<number> {
  return (await metricTotal(operator, /^(nodejs_heap_size_used_bytes|go_memstats_heap_inuse_bytes) /)) / 1024 / 1024;
}

/**
 * Cumulative counts of our workload controller's leader-election renew intervals by bucket bound (none for the peer,
 * which never renews), from its process, the operator's first endpoint.
 */
async function renewBuckets(operator: BenchedOperator): Promise<Map<number, number>> {
  const [url] = operator.metricsUrls;
  const text = url === undefined ? '' : await (await fetch(url)).text();
  const buckets = new Map<number, number>();
  for (const match of text.matchAll(/^leader_election_renew_interval_seconds_bucket\{([^}]*)\} (\S+)$/gm)) {
    const labels = match[1] ?? '';
    const bound = /le="([^"]+)"/.exec(labels)?.[1];
    if (bound === undefined || !labels.includes('name="zk-oam-workload"')) continue;
    buckets.set(bound === '+Inf' ? Infinity : Number(bound), Number(match[2]));
  }
  return buckets;
}

/** Idle CPU over IDLE_WINDOW_MS and the RSS at its end, of `pids` together. */
async function idleOf(pids: readonly number[]): Promise<{ cpuS: number; rssMiB: number }> {
  const from = await procStat(pids);
  await sleep(IDLE_WINDOW_MS);
  const to = await procStat(pids);
  return { cpuS: to.cpuSeconds - from.cpuSeconds, rssMiB: to.rssMiB };
}

/** How long a standby that has just listed everything is left before it is measured idle. */
const STANDBY_SETTLE_MS = 10_000;

/**
 * For an install of two replicas, the idle figures of both: the second replica's standbys started once the first is
 * measured, left to settle, measured beside it, and stopped again. NaN for an operator of one.
 */
async function twoReplicasIdle(operator: BenchedOperator): Promise<Pick<Sample, 'idleCpuS2' | 'rssMiB2'>> {
  const second = operator.secondReplica;
  if (second === undefined) return { idleCpuS2: Number.NaN, rssMiB2: Number.NaN };
  try {
    const standbys = await second.start();
    await sleep(STANDBY_SETTLE_MS);
    const both = await idleOf([...operator.processes(), ...standbys]);
    return { idleCpuS2: both.cpuS, rssMiB2: both.rssMiB };
  } finally {
    await second.stop();
  }
}

/** The bucket bound under which every renew interval between two readings fell: the longest renew gap, rounded up. */
function longestRenewGap(before: Map<number, number>, after: Map<number, number>): number {
  const bounds = [...after.keys()].sort((a, b) => a - b);
  const total = (after.get(Infinity) ?? 0) - (before.get(Infinity) ?? 0);
  if (total === 0) return Number.NaN;
  return bounds.find((bound) => (after.get(bound) ?? 0) - (before.get(bound) ?? 0) === total) ?? Number.NaN;
}

/** The operator's API writes since `offset` (Leases left out): all of them, those of a status, Events, and a count by verb and resource. */
async function writesSince(bed: BedInfo, offset: number, user: string): Promise<{ all: number; status: number; events: number; byKind: Record<string, number> }> {
  const entries = await auditEntriesSince(bed, offset);
  const writes = entries.filter((entry) => entry.user.username === user && WRITE_VERBS.has(entry.verb) && entry.objectRef?.resource !== 'leases');
  const byKind: Record<string, number> = {};
  for (const { verb, objectRef } of writes) {
    const kind = `${verb} ${objectRef?.resource ?? ''}${objectRef?.subresource === undefined ? '' : `/${objectRef.subresource}`}`;
    byKind[kind] = (byKind[kind] ?? 0) + 1;
  }
  return {
    all: writes.length,
    status: writes.filter((entry) => entry.objectRef?.subresource === 'status').length,
    events: writes.filter((entry) => entry.objectRef?.resource === 'events').length,
    byKind,
  };
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
function watchStatefulSets(kubeConfig: PooledKubeConfig, namespace: string): Promise<FirstSeen> {
  return watchFirstSeen(kubeConfig, `/apis/apps/v1/namespaces/${namespace}/statefulsets`, (type) => type === 'ADDED');
}

/** One burst of `size` ensembles for one operator, measured until idle; its namespace is deleted afterwards. */
async function run(bed: BedInfo, kubeConfig: PooledKubeConfig, operator: BenchedOperator, size: number, namespace: string): Promise<Sample> {
  const core = kubeConfig.makeApiClient(CoreV1Api);
  await core.createNamespace({ body: { metadata: { name: namespace } } });
  const watch = await watchStatefulSets(kubeConfig, namespace);
  const observed = await watchObserved(kubeConfig, operator.kind, namespace);
  const before = await procStat(operator.processes());
  const burstReconcilesBefore = await reconcileTotal(operator).catch(() => Number.NaN);
  const renewsBefore = await renewBuckets(operator);
  const burstAuditOffset = await auditLogSize(bed);
  const started = performance.now();
  const created = await applyBurst(operator, namespace, size);
  await untilSeen(watch, size, `${String(size)} StatefulSets of ${operator.name}`, 1_800_000);
  watch.stop();
  const latencies = [...created].map(([name, at]) => (watch.seen.get(name) ?? Number.NaN) - at);
  const lastObserved = await untilSeen(observed, size, `${String(size)} ensembles observed by ${operator.name}`, 1_800_000);
  const busy = await procStat(operator.processes());
  observed.stop();
  const observedS = (lastObserved - started) / 1000;
  const burstReconciles = (await reconcileTotal(operator).catch(() => Number.NaN)) - burstReconcilesBefore;
  const renewGapS = longestRenewGap(renewsBefore, await renewBuckets(operator));
  const settledS = await waitQuiet(bed, kubeConfig, namespace, size, operator.user);
  const burstWrites = await writesSince(bed, burstAuditOffset, operator.user);
  say(`${operator.name} ${String(size)} ensembles, its writes from the apply until quiet: ${JSON.stringify(burstWrites.byKind)}`);
  const reconcilesBefore = await reconcileTotal(operator).catch(() => Number.NaN);
  const auditOffset = await auditLogSize(bed);
  const idle = await idleOf(operator.processes());
  const reconciles = (await reconcileTotal(operator).catch(() => Number.NaN)) - reconcilesBefore;
  const writes = await writesSince(bed, auditOffset, operator.user);
  const heapMiB = await heapInUseMiB(operator);
  const twoReplicas = await twoReplicasIdle(operator);
  await core.deleteNamespace({ name: namespace });
  await waitFor(`namespace ${namespace} gone`, () => core.readNamespace({ name: namespace }).then(() => false, () => true), (gone) => gone, 1_800_000, 2_000);
  return {
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    observedS,
    burstCpuS: busy.cpuSeconds - before.cpuSeconds,
    burstReconciles,
    renewGapS,
    settledS,
    idleReconcilesPerS: reconciles / (IDLE_WINDOW_MS / 1000),
    burstWrites: burstWrites.all,
    burstStatusWrites: burstWrites.status,
    burstEvents: burstWrites.events,
    idleWritesPerMin: writes.all / (IDLE_WINDOW_MS / 60_000),
    idleCpuS: idle.cpuS,
    rssMiB: idle.rssMiB,
    ...twoReplicas,
    heapMiB,
  };
}

const FIGURES: readonly Figure[] = [
  { key: 'p50Ms', label: 'apply -> StatefulSet p50 (ms)', digits: 0 },
  { key: 'p99Ms', label: 'apply -> StatefulSet p99 (ms)', digits: 0 },
  { key: 'observedS', label: 'all observed (s)', digits: 1 },
  { key: 'burstCpuS', label: 'CPU during the burst (s)', digits: 1 },
  { key: 'burstReconciles', label: 'reconciles until all observed', digits: 0 },
  { key: 'renewGapS', label: 'longest Lease renew gap in the burst, bucket bound (s)', digits: 1 },
  { key: 'settledS', label: 'namespace quiet after (s)', digits: 0 },
  { key: 'burstWrites', label: 'API writes from the apply until quiet (no Leases)', digits: 0 },
  { key: 'burstStatusWrites', label: '  of which status writes', digits: 0 },
  { key: 'burstEvents', label: '  of which Events', digits: 0 },
  { key: 'idleReconcilesPerS', label: 'idle reconciles/s', digits: 2 },
  { key: 'idleWritesPerMin', label: 'idle API writes/min (no Leases)', digits: 1 },
  { key: 'idleCpuS', label: `idle CPU per ${String(IDLE_WINDOW_MS / 1000)} s (s)`, digits: 2 },
  { key: 'rssMiB', label: 'RSS when idle (MiB)', digits: 0 },
  { key: 'idleCpuS2', label: `idle CPU per ${String(IDLE_WINDOW_MS / 1000)} s, two replicas (s)`, digits: 2 },
  { key: 'rssMiB2', label: 'RSS when idle, two replicas (MiB)', digits: 0 },
  { key: 'heapMiB', label: 'heap in use when idle (MiB)', digits: 0 },
];

/** Every column's figures, the peer's the baseline, with rows of the idle figures at no ensemble first. */
function table(results: Map<string, Sample[]>, columns: readonly string[], peer: string, zero: ReadonlyMap<string, Sample>): string {
  const rows = comparisonTable({
    figures: FIGURES,
    sizes: SIZES,
    sizeHeader: 'ensembles',
    columns,
    baseline: peer,
    samples: (column, size) => results.get(`${column}/${String(size)}`) ?? [],
  });
  const compared = columns.filter((column) => column !== peer);
  const zeroRows = ['idleCpuS', 'rssMiB', 'idleCpuS2', 'rssMiB2'].map((key) => {
    const figure = FIGURES.find((candidate) => candidate.key === key);
    const value = (column: string): number => zero.get(column)?.[key] ?? Number.NaN;
    const shown = (column: string): string => (Number.isFinite(value(column)) ? value(column).toFixed(figure?.digits ?? 1) : 'n/a');
    return `| ${[figure?.label ?? key, '0', ...columns.map(shown), ...compared.map((column) => ratio(value(column), value(peer)))].join(' | ')} |`;
  });
  rows.splice(2, 0, ...zeroRows);
  return rows.join('\n');
}

async function idleAtZero(operator: BenchedOperator): Promise<Sample> {
  const idle = await idleOf(operator.processes());
  return { idleCpuS: idle.cpuS, rssMiB: idle.rssMiB, ...(await twoReplicasIdle(operator)) };
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
    // Our controllers run here from their bundles, as processes: the bed serves none of our images.
    ourImages: [],
  });
  const operators: BenchedOperator[] = [];
  try {
    await installCrds(bed.info);
    // The appconfig controller of a whole install watches the OAM kinds.
    if (INSTALLS.length > 0) await installOam(bed.info);
    const ours = await startOurs(bed.info, OURS_OPTIONS);
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
    const zero = new Map([
      [ours.name, zeroOurs],
      [peer.name, zeroPeer],
    ]);
    const results = new Map<string, Sample[]>();
    const record = async (operator: BenchedOperator, size: number, rep: number, namespace: string): Promise<void> => {
      const sample = await run(bed.info, kubeConfig, operator, size, namespace);
      results.set(`${operator.name}/${String(size)}`, [...(results.get(`${operator.name}/${String(size)}`) ?? []), sample]);
      say(`${operator.name} ${String(size)} ensembles, repetition ${String(rep)}: ${JSON.stringify(sample)}`);
    };
    for (const { size, reps } of RUNS) {
      for (let rep = 1; rep <= reps; rep += 1) {
        for (const [index, operator] of [ours, peer].entries()) await record(operator, size, rep, `bench-${index === 0 ? 'ours' : 'peer'}-${String(size)}-${String(rep)}`);
      }
    }
    const leaseAfter = await ourLease(kubeConfig);
    // Each install takes the same Leases as the workload controller alone: one of ours runs at a time.
    await ours.stop();
    operators.splice(operators.indexOf(ours), 1);
    const installs: string[] = [];
    for (const install of INSTALLS) {
      const operator = await startInstall(bed.info, install, PROFILE_OPTIONS);
      operators.push(operator);
      installs.push(operator.name);
      await sleep(SETTLE_MS);
      say(`${operator.name} up (one replica); idle with no ensemble for ${String(IDLE_WINDOW_MS / 1000)} s`);
      zero.set(operator.name, await idleAtZero(operator));
      for (const { size, reps } of RUNS) {
        for (let rep = 1; rep <= reps; rep += 1) await record(operator, size, rep, `bench-${install}-${String(size)}-${String(rep)}`);
      }
      await operator.stop();
      operators.splice(operators.indexOf(operator), 1);
    }
    const { mean, max } = load.stop();
    const kept = leaseAfter.holder === leaseBefore.holder && leaseAfter.transitions === leaseBefore.transitions;
    console.log(
      [
        '',
        `Benchmark: ${RUNS.map((run) => `${String(run.reps)} repetition(s) at ${String(run.size)}`).join(', ')}; median (min-max); pods unschedulable (nodeSelector ${'zkoam.dev/no-such-node'}), so the controllers alone are measured.`,
        `kube-controller-manager at ${String(CONTROLLER_MANAGER_API_QPS)} requests/s (its default is 20), so the pods of a burst are created sooner; every operator shares it.`,
        `Machine: ${String((await readFile('/proc/cpuinfo', 'utf8')).match(/^processor/gm)?.length ?? '?')} cores; 1-minute load average during the run: mean ${mean.toFixed(2)}, peak ${max.toFixed(2)}.`,
        `Our Lease: ${kept ? 'kept by one process for the whole run' : 'LOST during the run'} (holder ${leaseBefore.holder} -> ${leaseAfter.holder}, transitions ${String(leaseBefore.transitions)} -> ${String(leaseAfter.transitions)}).`,
        [
          `${ours.name}: the workload controller alone.`,
          ...installs.map((name) => `${name}: every controller pod of that install (one replica each; "two replicas" adds the standbys, started after the burst).`),
          "Lease renew gaps and idle writes are the workload controller's; reconciles, heap and CPU every process's.",
        ].join(' '),
        '',
        table(results, [ours.name, ...installs, peer.name], peer.name, zero),
      ].join('\n'),
    );
  } finally {
    for (const operator of operators) await operator.stop();
    await bed.stop();
  }
}

await main();
