// `npx tsx test/bench/zookeeper-container-start.ts` (no npm script: the root package.json is in every image's build
// context). What a ZooKeeper member's JVM costs to start as a host process (how the bed ran pods before) and as a runc
// container of the bed's Debian ZooKeeper image, with and without the bed's class-data sharing archive (bind-mounted
// read-only): the JVM's CPU seconds until a one-member ensemble serves (srvr answers), the seconds
// until then, and whether the container's JVM maps the host's archive at all (-Xshare:on). Also the time from asking
// runc for a container to its first process running. ZKOAM_BENCH_REPS (default 3).
import { execFileSync, spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fourLetterWord } from '@zk-oam/zookeeper';
import { pino } from 'pino';
import { repoRoot } from '../src/bed/paths.js';
import { startContainer, stopContainer, type StartedContainer } from '../src/containers/container-run.js';
import { ImageBundles, type ImageBundle } from '../src/containers/image-bundles.js';
import { Runc } from '../src/containers/runc.js';
import type { RunOptions } from '../src/containers/runtime-spec.js';
import { ImageStore } from '../src/images/image-store.js';
import { withJvmArchive } from '../src/agent/jvm-archive.js';
import { imageCdsArchive } from '../src/zookeeper-jvm/image-cds-archive.js';
import { buildZookeeperImages } from '../src/images/zookeeper-images.js';
import { localServerEntry, renderDynamicConfig, renderStaticConfig } from '../src/zookeeper-local/member-files.js';
import { bedCacheDir } from '../src/cache-dir.js';
import { DEBIAN_ZOOKEEPER_CLASSPATH, sharedArchiveOptions, SHORT_LIVED_JVM_FLAGS, zookeeperCdsArchive } from '../src/zookeeper-jvm/index.js';
import { cell, median, type Figure, type Sample } from './figures.js';

const REPS = Number(process.env['ZKOAM_BENCH_REPS'] ?? 3);
const IP = '127.0.9.77';
const CONTAINER_ARCHIVE_DIR = '/zk-oam-jvm-cds';
const PORTS = { client: 2181, quorum: 2888, election: 3888 };
const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
const log = pino({ name: 'bench-container', level: 'warn' }, pino.destination(2));

const FIGURES: readonly Figure[] = [
  { key: 'servingS', label: 'serving after (s)', digits: 2 },
  { key: 'cpuS', label: 'JVM CPU until serving (s)', digits: 2 },
];

function say(line: string): void {
  process.stderr.write(`[bench:container] ${line}\n`);
}

function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${String(pid)}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}

/** A one-member ensemble's files under `dir` (not standalone, so election and the leader's classes load, as in a pod). */
async function memberFiles(dir: string): Promise<string> {
  const dataDir = join(dir, 'data');
  await mkdir(dataDir, { recursive: true });
  await writeFile(join(dataDir, 'myid'), '1\n');
  const dynamicConfigFile = join(dir, 'zoo.cfg.dynamic');
  await writeFile(dynamicConfigFile, renderDynamicConfig([localServerEntry({ id: 1, ip: IP }, PORTS, 'participant')]));
  const configFile = join(dir, 'zoo.cfg');
  await writeFile(configFile, renderStaticConfig({ dataDir, dynamicConfigFile }));
  return configFile;
}

async function untilServing(started: number): Promise<number> {
  for (;;) {
    const answer = await fourLetterWord(IP, PORTS.client, 'srvr', { timeoutMs: 1_000 }).catch(() => '');
    if (answer.includes('Mode:')) return (performance.now() - started) / 1000;
    await sleep(50);
  }
}

function javaArgs(options: readonly string[], configFile: string): string[] {
  return ['java', ...options, '-cp', DEBIAN_ZOOKEEPER_CLASSPATH, 'org.apache.zookeeper.server.quorum.QuorumPeerMain', configFile];
}

async function onHost(options: readonly string[]): Promise<Sample> {
  const dir = await mkdtemp(join(tmpdir(), 'zk-oam-bench-host-'));
  const [java = '', ...args] = javaArgs(options, await memberFiles(dir));
  const started = performance.now();
  const child = spawn(java, args, { stdio: 'ignore' });
  try {
    const servingS = await untilServing(started);
    return { servingS, cpuS: cpuSeconds(child.pid ?? 0) };
  } finally {
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    await rm(dir, { recursive: true, force: true });
  }
}

async function inContainer(runc: Runc, image: ImageBundle, options: readonly string[], mounts: RunOptions['mounts'], id: string): Promise<Sample> {
  const dir = await mkdtemp(join(tmpdir(), 'zk-oam-bench-container-'));
  const configFile = await memberFiles(dir);
  const output = openSync(join(dir, 'output'), 'a');
  const started = performance.now();
  let container: StartedContainer | undefined;
  try {
    container = await startContainer(runc, {
      id,
      dir: join(dir, 'bundle'),
      image,
      run: { args: javaArgs(options, configFile), user: { uid: 0, gid: 0 }, mounts: [{ source: dir, destination: dir, readOnly: false }, ...(mounts ?? [])] },
      stdout: output,
      stderr: output,
    });
    const servingS = await untilServing(started);
    return { servingS, cpuS: cpuSeconds(container.pid) };
  } finally {
    closeSync(output);
    if (container !== undefined) await stopContainer(container, 0);
    await rm(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const store = new ImageStore(bedCacheDir(process.env));
  const built = (await buildZookeeperImages({ repo: repoRoot(), store, progress: say })).find((image) => image.name === 'zookeeper-debian');
  if (built === undefined) throw new Error('no zookeeper-debian image');
  const image = await new ImageBundles(store).get(built.layout, built.name);
  const archive = await zookeeperCdsArchive({ cacheDir: bedCacheDir(process.env), path: process.env['PATH'] ?? '', log });
  if (archive === undefined) throw new Error('no class-data sharing archive');
  const runcDir = await mkdtemp(join(tmpdir(), 'zk-oam-bench-runc-'));
  const runc = new Runc(join(runcDir, 'state'));
  // Not at its host path: the image's users cannot traverse /root.
  const hostArchiveMount = [{ source: dirname(archive), destination: CONTAINER_ARCHIVE_DIR, readOnly: true }];
  const hostArchive = join(CONTAINER_ARCHIVE_DIR, basename(archive));
  const mapsCheck = await startContainer(runc, {
    id: 'maps-archive',
    dir: join(runcDir, 'maps-archive'),
    image,
    run: { args: ['java', ...SHORT_LIVED_JVM_FLAGS, '-Xshare:on', `-XX:SharedArchiveFile=${hostArchive}`, '-cp', DEBIAN_ZOOKEEPER_CLASSPATH, 'org.apache.zookeeper.version.VersionInfoMain'], mounts: hostArchiveMount },
    stdout: 2,
    stderr: 2,
  });
  say(`the container's JVM with the host's archive and -Xshare:on exits ${String((await mapsCheck.exited).exitCode)} (0: it maps the archive)`);

  // The archive the bed makes for its image's pods, in a cache of this run's own, mounted as the agent mounts it.
  const trained = await imageCdsArchive({ cacheDir: runcDir, image, log });
  if (trained === undefined) throw new Error('no archive made in the image');
  const withTrainedArchive = withJvmArchive({ env: {}, mounts: [] }, trained);

  const latencies: number[] = [];
  for (let rep = 0; rep < REPS; rep++) {
    const began = performance.now();
    const trivial = await startContainer(runc, { id: `trivial-${String(rep)}`, dir: join(runcDir, `trivial-${String(rep)}`), image, run: { args: ['true'] }, stdout: 2, stderr: 2 });
    latencies.push(performance.now() - began);
    await trivial.exited;
  }
  say(`runc container start (asked to first process running), median of ${String(REPS)}: ${String(Math.round(median(latencies)))} ms`);

  const variants: Record<string, () => Promise<Sample>> = {
    'host process, c1 + archive (before)': () => onHost([...SHORT_LIVED_JVM_FLAGS, ...sharedArchiveOptions(archive)]),
    'container, c1, no archive': () => inContainer(runc, image, SHORT_LIVED_JVM_FLAGS, [], `zk-plain-${String(Date.now())}`),
    'container, c1 + an archive made in the image': () =>
      inContainer(runc, image, (withTrainedArchive.env?.['JDK_JAVA_OPTIONS'] ?? '').split(' '), withTrainedArchive.mounts, `zk-archive-${String(Date.now())}`),
  };
  const samples = new Map<string, Sample[]>(Object.keys(variants).map((name) => [name, []]));
  for (let rep = 0; rep < REPS; rep++) {
    for (const [name, measure] of Object.entries(variants)) {
      const sample = await measure();
      samples.get(name)?.push(sample);
      say(`${name}: ${FIGURES.map((figure) => `${figure.label} ${cell([sample[figure.key] ?? Number.NaN], figure.digits)}`).join(', ')}`);
    }
  }
  for (const [name, taken] of samples) {
    say(`${name}, median (min-max) of ${String(taken.length)}: ${FIGURES.map((figure) => `${figure.label} ${cell(taken.map((sample) => sample[figure.key] ?? Number.NaN), figure.digits)}`).join(', ')}`);
  }
  await rm(runcDir, { recursive: true, force: true });
}

await main();
