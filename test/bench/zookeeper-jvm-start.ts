// `npm run bench:jvm`: what starting Debian's ZooKeeper JVMs costs on this machine, per set of JVM options. For each
// variant, several times (variants in turn, so each sees the same drift of the machine's load), it starts a local
// 3-member ensemble and measures the time from spawn to the first and the last member answering `srvr` (a member
// answers only once it is in a quorum), to a member answering as leader, and the CPU seconds the three JVMs used until
// then (/proc/<pid>/stat); then one zkCli run (`ls /`) with the same options, its time and CPU seconds (the children's
// CPU this process reaped). The archive for the CDS variants is the bed's (test/src/zookeeper-jvm), made first if
// missing. ZKOAM_BENCH_REPS (default 3) and ZKOAM_BENCH_VARIANTS (comma-separated names) narrow the run.
import { execFile, execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { fourLetterWord, parseSrvr } from '@zk-oam/zookeeper';
import { pino } from 'pino';
import { bedCacheDir } from '../src/cache-dir.js';
import { DEBIAN_ZOOKEEPER_CLASSPATH, sharedArchiveOptions, SHORT_LIVED_JVM_FLAGS, zookeeperCdsArchive } from '../src/zookeeper-jvm/index.js';
import { startLocalEnsemble } from '../src/zookeeper-local/index.js';
import { cell, median, ratio, type Figure, type Sample } from './figures.js';

const REPS = Number(process.env['ZKOAM_BENCH_REPS'] ?? 3);
const IP_PREFIX = '127.0.9';
const CLIENT_PORT = 2181;
const SIZE = 3;
const START_TIMEOUT_MS = 120_000;
const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());

const log = pino({ name: 'bench-jvm', level: process.env['LOG_LEVEL'] ?? 'warn' }, pino.destination(2));

/** What pods, zkCli and the TLS writer ran with before: the JVM's defaults. */
const BASELINE = 'defaults';

/** Each variant's options, given the archive; `local-before` is what local ensembles ran with before. */
const VARIANTS: Record<string, (archive: string) => string[]> = {
  [BASELINE]: () => [],
  'local-before': () => ['-Xmx192m', '-XX:+UseSerialGC', '-XX:TieredStopAtLevel=1', '-Xshare:auto'],
  cds: (archive) => sharedArchiveOptions(archive),
  'c1 (TieredStopAtLevel=1)': () => ['-XX:TieredStopAtLevel=1'],
  'serial-gc': () => ['-XX:+UseSerialGC'],
  'c1 + CICompilerCount=1': () => ['-XX:TieredStopAtLevel=1', '-XX:CICompilerCount=1'],
  'Xss256k': () => ['-Xss256k'],
  '-UsePerfData': () => ['-XX:-UsePerfData'],
  'Xms16m Xmx256m': () => ['-Xms16m', '-Xmx256m'],
  'bed now + serial-gc': (archive) => ['-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC', ...sharedArchiveOptions(archive)],
  'bed now: c1 + cds': (archive) => [...SHORT_LIVED_JVM_FLAGS, ...sharedArchiveOptions(archive)],
};

const FIGURES: readonly Figure[] = [
  { key: 'firstServingS', label: 'first member serving (s)', digits: 2 },
  { key: 'leaderS', label: 'leader elected (s)', digits: 2 },
  { key: 'lastServingS', label: 'all 3 serving (s)', digits: 2 },
  { key: 'serverCpuS', label: 'CPU of the 3 JVMs until then (s)', digits: 2 },
  { key: 'clientS', label: 'zkCli ls / (s)', digits: 2 },
  { key: 'clientCpuS', label: 'zkCli CPU (s)', digits: 2 },
];

function say(line: string): void {
  process.stderr.write(`[bench:jvm] ${line}\n`);
}

/** Fields of /proc/<pid>/stat after the command name (field 3 onwards). */
function statFields(pid: number | 'self'): string[] {
  const stat = readFileSync(`/proc/${String(pid)}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** utime + stime of a running process (fields 14 and 15). */
function cpuSeconds(pid: number): number {
  const fields = statFields(pid);
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}

/** cutime + cstime of this process (fields 16 and 17): the CPU of the children it has reaped. */
function reapedChildrenCpuSeconds(): number {
  const fields = statFields('self');
  return (Number(fields[13]) + Number(fields[14])) / CLOCK_TICKS;
}

/** Seconds from `spawned` until each member answers srvr, and until one answers as leader; polled every 50 ms. */
async function watchStart(ips: readonly string[], spawned: number): Promise<{ serving: number[]; leader: number }> {
  let leader = Number.NaN;
  const serving = await Promise.all(
    ips.map(async (ip) => {
      for (;;) {
        try {
          const answer = parseSrvr(await fourLetterWord(ip, CLIENT_PORT, 'srvr', { timeoutMs: 1_000 }));
          const at = (performance.now() - spawned) / 1000;
          if (answer.mode === 'leader') leader = at;
          return at;
        } catch {
          if (performance.now() - spawned > START_TIMEOUT_MS) return Number.NaN;
          await sleep(50);
        }
      }
    }),
  );
  return { serving, leader };
}

async function zkCli(options: readonly string[], server: string): Promise<{ seconds: number; cpu: number }> {
  const cpuBefore = reapedChildrenCpuSeconds();
  const started = performance.now();
  await promisify(execFile)('java', [...options, '-cp', DEBIAN_ZOOKEEPER_CLASSPATH, 'org.apache.zookeeper.ZooKeeperMain', '-server', server, 'ls', '/'], { timeout: 60_000 });
  return { seconds: (performance.now() - started) / 1000, cpu: reapedChildrenCpuSeconds() - cpuBefore };
}

async function measure(options: readonly string[]): Promise<Sample> {
  const dir = await mkdtemp(join(tmpdir(), 'zk-oam-bench-jvm-'));
  const ips = Array.from({ length: SIZE }, (_, index) => `${IP_PREFIX}.${String(index + 1)}`);
  const spawned = performance.now();
  const watching = watchStart(ips, spawned);
  const ensemble = await startLocalEnsemble({ size: SIZE, dir, ipPrefix: IP_PREFIX, basePort: CLIENT_PORT, jvmOptions: options, startTimeoutMs: START_TIMEOUT_MS, log });
  try {
    const { serving, leader } = await watching;
    const serverCpuS = ensemble.members().reduce((sum, member) => sum + cpuSeconds(member.pid() ?? 0), 0);
    const client = await zkCli(options, ensemble.connectString());
    return {
      firstServingS: Math.min(...serving),
      leaderS: leader,
      lastServingS: Math.max(...serving),
      serverCpuS,
      clientS: client.seconds,
      clientCpuS: client.cpu,
    };
  } finally {
    await ensemble.stopAll();
    await rm(dir, { recursive: true, force: true });
  }
}

/** A row per variant, a column per figure (median and spread), then each CPU figure's ratio to the baseline. */
function table(results: ReadonlyMap<string, readonly Sample[]>): string {
  const values = (variant: string, key: string): number[] => (results.get(variant) ?? []).map((sample) => sample[key] ?? Number.NaN);
  const header = ['variant', ...FIGURES.map((figure) => figure.label), 'all serving / baseline', 'server CPU / baseline'];
  const rows = [`| ${header.join(' | ')} |`, `|${' --- |'.repeat(header.length)}`];
  for (const variant of results.keys()) {
    const cells = FIGURES.map((figure) => cell(values(variant, figure.key), figure.digits));
    const against = (key: string): string => ratio(median(values(variant, key)), median(values(BASELINE, key)));
    rows.push(`| ${[variant, ...cells, against('lastServingS'), against('serverCpuS')].join(' | ')} |`);
  }
  return rows.join('\n');
}

async function main(): Promise<void> {
  const chosen = process.env['ZKOAM_BENCH_VARIANTS']?.split(',') ?? Object.keys(VARIANTS);
  const unknown = chosen.filter((variant) => VARIANTS[variant] === undefined);
  if (unknown.length > 0) throw new Error(`no variant ${unknown.join(', ')}; known: ${Object.keys(VARIANTS).join(', ')}`);
  const archiveStarted = performance.now();
  const archive = await zookeeperCdsArchive({ cacheDir: bedCacheDir(process.env), path: process.env['PATH'] ?? '', log });
  if (archive === undefined) throw new Error('no class-data sharing archive could be made: see the warning above');
  say(`archive ${archive} ready after ${((performance.now() - archiveStarted) / 1000).toFixed(1)} s (made now if that is more than a few ms)`);
  const results = new Map<string, Sample[]>(chosen.map((variant) => [variant, []]));
  for (let rep = 1; rep <= REPS; rep += 1) {
    for (const variant of chosen) {
      const sample = await measure(VARIANTS[variant]?.(archive) ?? []);
      results.get(variant)?.push(sample);
      say(`${variant}, repetition ${String(rep)}: ${JSON.stringify(sample)}`);
    }
  }
  process.stdout.write(`\nStart of a local 3-member ZooKeeper ensemble and of one zkCli, ${String(REPS)} repetitions each, median (min-max).\n\n${table(results)}\n`);
}

await main();
