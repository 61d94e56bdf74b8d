// The class-data sharing archive for the bed's ZooKeeper JVMs: made on first use by a training run (a one-member
// ensemble that elects itself, then stops, and the JVM writes the classes it loaded), cached under the bed's cache
// directory by Java and jar set. Any failure here costs only speed: a JVM without a usable archive starts without it.
// The training runs on this machine's java here, and in a container of an image for its pods (image-cds-archive.ts).
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { promisify } from 'node:util';
import type { Logger } from 'pino';
import { localServerEntry, renderDynamicConfig, renderStaticConfig } from '../zookeeper-local/member-files.js';
import { startServerProcess } from '../zookeeper-local/process.js';
import { waitUntilServing } from '../zookeeper-local/wait.js';
import { DEBIAN_ZOOKEEPER_CLASSPATH } from './classpath.js';
import { SHORT_LIVED_JVM_FLAGS } from './flags.js';

export interface CdsArchiveOptions {
  /** The bed's cache directory; archives live in its `jvm-cds/`. */
  cacheDir: string;
  /** The PATH the JVMs are started with: its first `java` is the Java the archive is made for. */
  path: string;
  log: Logger;
}

/** The archive for the `java` on `path` and Debian's ZooKeeper jars, made now if there is none; undefined if it cannot be. */
export async function zookeeperCdsArchive(options: CdsArchiveOptions): Promise<string | undefined> {
  try {
    const home = javaHome(options.path);
    if (home === undefined) return undefined;
    const archive = join(options.cacheDir, 'jvm-cds', `zookeeper-java${javaVersion(home)}-${archiveKey(home)}.jsa`);
    if (existsSync(archive)) return archive;
    const started = Date.now();
    await trainArchive(archive);
    options.log.info({ archive, ms: Date.now() - started }, 'made the class-data sharing archive for ZooKeeper JVMs');
    return archive;
  } catch (error) {
    options.log.warn({ err: error }, 'no class-data sharing archive for ZooKeeper JVMs: they start without one');
    return undefined;
  }
}

function javaHome(path: string): string | undefined {
  const java = path
    .split(delimiter)
    .map((dir) => join(dir, 'java'))
    .find((candidate) => existsSync(candidate));
  return java === undefined ? undefined : dirname(dirname(realpathSync(java)));
}

function javaVersion(home: string): string {
  return /^JAVA_VERSION="([^"]+)"/m.exec(readFileSync(join(home, 'release'), 'utf8'))?.[1] ?? 'unknown';
}

function fileStamp(file: string): string {
  const stat = statSync(file);
  return `${file} ${String(stat.size)} ${String(stat.mtimeMs)}\n`;
}

/**
 * What an archive is valid for: the Java (release file, module image, JVM library), the jars it may hold classes of (all
 * in the classpath's directories, since zookeeper.jar's manifest pulls in more), and the flags it was made with. The JVM
 * checks the same itself and ignores a stale archive; the key keeps a stale one from being used for ever.
 */
function archiveKey(home: string): string {
  const hash = createHash('sha256');
  hash.update(readFileSync(join(home, 'release')));
  hash.update(fileStamp(join(home, 'lib', 'modules')));
  hash.update(fileStamp(join(home, 'lib', 'server', 'libjvm.so')));
  hash.update(`${DEBIAN_ZOOKEEPER_CLASSPATH}\n${SHORT_LIVED_JVM_FLAGS.join(' ')}\n`);
  const jarDirs = [...new Set(DEBIAN_ZOOKEEPER_CLASSPATH.split(':').filter((entry) => entry.endsWith('.jar')).map((jar) => dirname(jar)))];
  for (const dir of jarDirs) {
    for (const name of readdirSync(dir).filter((file) => file.endsWith('.jar')).sort()) hash.update(fileStamp(join(dir, name)));
  }
  return hash.digest('hex').slice(0, 16);
}

/** Where a training run's JVMs run: on this machine (the bed's own JVMs), or in a container of an image (its pods'). */
export interface TrainingJvm {
  /** Starts ZooKeeper's server with `options` on `configFile`, its output appended to `logFile`. */
  startServer(options: readonly string[], configFile: string, logFile: string): Promise<{ alive(): boolean; stop(graceMs: number): Promise<void> }>;
  /** Whether a JVM with `options` (-Xshare:on and the archive) starts: ZooKeeper's version main, to its end. */
  starts(options: readonly string[]): Promise<boolean>;
}

/** This machine's java. */
const hostJvm: TrainingJvm = {
  startServer: (options, configFile, logFile) => Promise.resolve(startServerProcess({ configFile, logFile, superDigest: undefined, jvmOptions: options })),
  starts: (options) =>
    promisify(execFile)('java', [...options, '-cp', DEBIAN_ZOOKEEPER_CLASSPATH, 'org.apache.zookeeper.version.VersionInfoMain'], { timeout: 60_000 }).then(
      () => true,
      () => false,
    ),
};

/**
 * Runs the training member with the archive written at its exit, checks that a JVM maps the archive (a truncated one
 * would crash it), and only then moves it into place: a concurrent run finds either no archive or a whole one. The
 * training directory sits beside the archive, at the same path for `jvm` (a container mounts it there).
 */
export async function trainArchive(archive: string, jvm: TrainingJvm = hostJvm): Promise<void> {
  mkdirSync(dirname(archive), { recursive: true });
  const dir = mkdtempSync(join(dirname(archive), 'training-'));
  const draft = join(dir, 'archive.jsa');
  try {
    await runTrainingMember(dir, [...SHORT_LIVED_JVM_FLAGS, `-XX:ArchiveClassesAtExit=${draft}`], jvm);
    if (!(await jvm.starts([...SHORT_LIVED_JVM_FLAGS, '-Xshare:on', `-XX:SharedArchiveFile=${draft}`]))) throw new Error('a JVM refused the archive just made');
    renameSync(draft, archive);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A one-member ensemble (not standalone, so election and the leader's classes load) on its own loopback address. */
async function runTrainingMember(dir: string, jvmOptions: readonly string[], jvm: TrainingJvm): Promise<void> {
  const ip = `127.0.253.${String((process.pid % 250) + 1)}`;
  const ports = { client: 2181, quorum: 2888, election: 3888 };
  const dataDir = join(dir, 'data');
  const dynamicConfigFile = join(dir, 'zoo.cfg.dynamic');
  const configFile = join(dir, 'zoo.cfg');
  mkdirSync(dataDir);
  writeFileSync(join(dataDir, 'myid'), '1\n');
  writeFileSync(dynamicConfigFile, renderDynamicConfig([localServerEntry({ id: 1, ip }, ports, 'participant')]));
  writeFileSync(configFile, renderStaticConfig({ dataDir, dynamicConfigFile }));
  const server = await jvm.startServer(jvmOptions, configFile, join(dir, 'training.log'));
  try {
    await waitUntilServing({ host: ip, port: ports.client, label: 'the training member' }, { timeoutMs: 90_000, isAlive: () => server.alive() });
  } finally {
    // SIGTERM: the JVM writes the archive as it exits.
    await server.stop(30_000);
  }
}
