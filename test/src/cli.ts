// `npm run cluster:up|down`: runs a test bed in the background, its state in <repo>/.cluster/.
// up: starts a detached daemon holding the bed and returns once it is ready; down: stops it and every
// process it started. `daemon` is the internal command the background process runs.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { z } from 'zod';
import type { BedInfo } from './bed/index.js';
import { isAlive, processesMentioning, reapProcessesMentioning } from './bed/reap.js';
import { repoRoot } from './bed/paths.js';
import { clusterDir, clusterFiles, daemonPid, readyInfo } from './cluster-files.js';
import { POLL_INTERVAL_MS, waitFor, waitForValue, WaitTimeoutError } from './wait-for.js';

const files = clusterFiles;
const upTimeoutMs = 10 * 60_000;
const downTimeoutMs = 90_000;
const logLineSchema = z.object({ msg: z.string() });

function usage(info: BedInfo): string {
  return [
    `The test bed is up (Kubernetes API at ${info.server}, NATS at ${info.nats.url}).`,
    '',
    `  export KUBECONFIG=${files.kubeconfig}`,
    `  export PATH=${info.binDir}:$PATH   # kubectl matching the bed's Kubernetes`,
    '  kubectl get nodes',
    '',
    `NATS credentials: ${files.nats}`,
    `Image registry (every pod's image is pulled from it; plain HTTP): ${info.registry}, e.g. curl http://${info.registry}/v2/_catalog`,
    `Logs: ${join(info.dir, 'logs')}/ (one file per process), daemon: ${files.daemonLog}, audit: ${join(info.dir, 'audit.log')}`,
    'Stop it with: npm run cluster:down',
  ].join('\n');
}

/** Prints the daemon's log messages written since `offset`; returns the new offset. */
function echoDaemonLog(offset: number): number {
  if (!existsSync(files.daemonLog)) return offset;
  const text = readFileSync(files.daemonLog, 'utf8');
  const complete = text.slice(offset, text.lastIndexOf('\n') + 1);
  for (const line of complete.split('\n').filter(Boolean)) {
    const parsed = logLineSchema.safeParse(safeJson(line));
    process.stdout.write(`  ${parsed.success ? parsed.data.msg : line}\n`);
  }
  return offset + complete.length;
}

function safeJson(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    // Not a pino line (a stack trace, a child's stray output): shown as it is.
    return undefined;
  }
}

async function up(): Promise<number> {
  const running = daemonPid();
  const info = readyInfo();
  if (running !== undefined && info) {
    process.stdout.write(`Already up (daemon pid ${String(running)}).\n\n${usage(info)}\n`);
    return 0;
  }
  if (running !== undefined) {
    process.stdout.write(`A bed daemon (pid ${String(running)}) is still starting or stopping; run cluster:down first.\n`);
    return 1;
  }
  const leftovers = await reapProcessesMentioning(`${clusterDir}/`);
  if (leftovers.length > 0) process.stdout.write(`Killed ${String(leftovers.length)} processes left from an earlier bed.\n`);
  rmSync(clusterDir, { recursive: true, force: true });
  mkdirSync(clusterDir, { recursive: true });
  const logFd = openSync(files.daemonLog, 'a');
  const daemon = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), 'daemon'], {
    cwd: repoRoot(),
    detached: true,
    stdio: ['ignore', logFd, logFd],
  });
  daemon.unref();
  const { pid } = daemon;
  if (pid === undefined) throw new Error(`could not start the bed daemon; see ${files.daemonLog}`);
  writeFileSync(files.pid, `${String(pid)}\n`);
  process.stdout.write(`Starting the test bed in the background (daemon pid ${String(pid)}, state in ${clusterDir})\n`);
  let offset = 0;
  const readyAfterEcho = (): Promise<BedInfo | undefined> => {
    offset = echoDaemonLog(offset);
    return Promise.resolve(readyInfo());
  };
  const daemonExited = (): Error | undefined => (isAlive(pid) ? undefined : new Error(`The bed daemon exited before the bed was ready; see ${files.daemonLog}`));
  try {
    const ready = await waitForValue('the bed ready', readyAfterEcho, upTimeoutMs, POLL_INTERVAL_MS, daemonExited);
    process.stdout.write(`\n${usage(ready)}\n`);
    return 0;
  } catch (error) {
    echoDaemonLog(offset);
    if (!(error instanceof WaitTimeoutError)) {
      process.stdout.write(`${error instanceof Error ? error.message : String(error)}\n`);
      rmSync(files.pid, { force: true });
      return 1;
    }
    process.stdout.write(`The bed was not ready after ${String(upTimeoutMs / 60_000)} minutes; stopping it.\n`);
    return down();
  }
}

async function down(): Promise<number> {
  const pid = daemonPid();
  const started = processesMentioning(`${clusterDir}/`);
  if (pid === undefined) process.stdout.write('No bed daemon is running.\n');
  else {
    process.stdout.write(`Stopping the bed daemon (pid ${String(pid)}) and its ${String(started.length)} processes...\n`);
    process.kill(pid, 'SIGTERM');
    await waitFor('the bed daemon to stop', () => Promise.resolve(isAlive(pid)), (alive) => !alive, downTimeoutMs).catch((error: unknown) => {
      if (!(error instanceof WaitTimeoutError)) throw error;
      process.stdout.write(`The daemon did not stop within ${String(downTimeoutMs / 1000)}s; killing it.\n`);
      process.kill(pid, 'SIGKILL');
    });
  }
  const stragglers = await reapProcessesMentioning(`${clusterDir}/`);
  rmSync(files.pid, { force: true });
  rmSync(files.ready, { force: true });
  for (const p of started) process.stdout.write(`  stopped ${String(p.pid)} ${p.cmdline.slice(0, 120)}\n`);
  for (const p of stragglers) process.stdout.write(`  had to kill ${String(p.pid)} ${p.cmdline.slice(0, 120)}\n`);
  const remaining = processesMentioning(`${clusterDir}/`);
  if (remaining.length > 0) {
    process.stdout.write(`Still running after down: ${remaining.map((p) => String(p.pid)).join(', ')}\n`);
    return 1;
  }
  process.stdout.write(`Bed stopped; no process of it is left. Logs stay in ${clusterDir}.\n`);
  return 0;
}

/** The background process: holds the bed until SIGTERM/SIGINT. */
async function daemon(): Promise<number> {
  // Loaded here, not at the top: `up` and `down` run without the bed's modules, so the daemon starts sooner.
  const { resolveBinaries, startBed } = await import('./bed/index.js');
  const log = pino({ name: 'bed-daemon' });
  const bed = await startBed({ dir: clusterDir, log, binaries: await resolveBinaries(process.env) });
  writeFileSync(files.nats, `${JSON.stringify(bed.info.nats, null, 2)}\n`, { mode: 0o600 });
  writeFileSync(files.ready, `${JSON.stringify(bed.info, null, 2)}\n`, { mode: 0o600 });
  const signal = await new Promise<NodeJS.Signals>((resolve) => {
    process.once('SIGTERM', resolve);
    process.once('SIGINT', resolve);
  });
  log.info({ signal }, 'stopping the test bed');
  rmSync(files.ready, { force: true });
  await bed.stop();
  return 0;
}

const commands: Record<string, () => Promise<number>> = { up, down, daemon };
const command = commands[process.argv[2] ?? ''];
if (!command) {
  process.stderr.write('usage: cli.ts up|down\n');
  process.exitCode = 2;
} else {
  process.exitCode = await command();
}
