// `npm run cluster:up|down`: runs a test bed in the background, its state in <repo>/.cluster/.
// up: starts a detached daemon holding the bed, in a network namespace of its own (scripts/bed-network.sh), and returns
// once it is ready and its doors are open (door.ts: the apiserver and the console, on loopback ports of the machine);
// down: stops it and every process it started. `daemon` is the internal command the background process runs.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { z } from 'zod';
import type { BedInfo } from './bed/index.js';
import { isAlive, processesMentioning, reapProcessesMentioning } from './bed/reap.js';
import { repoRoot } from './bed/paths.js';
import { clusterDir, clusterFiles, daemonPid, openDoors, readyInfo, type Door } from './cluster-files.js';
import type { DoorTarget } from './bed/door.js';
import { POLL_INTERVAL_MS, waitFor, waitForValue, WaitTimeoutError } from './wait-for.js';

const files = clusterFiles;
const upTimeoutMs = 10 * 60_000;
const downTimeoutMs = 90_000;
const logLineSchema = z.object({ msg: z.string() });

/** The console's Service (deploy/console), which its door leads to once `npm start` has installed it. */
const CONSOLE_SERVICE = { namespace: 'zk-oam-system', name: 'zk-oam-console' };

function usage(info: BedInfo): string {
  const doors = openDoors() ?? {};
  return [
    `The test bed is up (Kubernetes API at ${info.server}, NATS at ${info.nats.url} in the bed's network).`,
    `Its network is a namespace of its own: pods ${info.network.podCidr}, Services ${info.network.serviceCidr}, cluster DNS ${info.network.dnsServiceIp}.`,
    `From this machine, the API and the console are reached through doors on loopback: ${Object.entries(doors).map(([name, port]) => `${name} 127.0.0.1:${String(port)}`).join(', ')};`,
    `to run a command inside the bed's network: nsenter --net=/proc/$(cat ${files.pid})/ns/net <command>`,
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
  // bed-network.sh and the shell it starts exec the daemon: the pid spawned is the daemon's.
  const daemon = spawn('bash', [join(repoRoot(), 'scripts/bed-network.sh'), process.execPath, '--import', 'tsx', fileURLToPath(import.meta.url), 'daemon'], {
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
    await openTheDoors();
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
  rmSync(files.openDoors, { force: true });
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

/** Starts the door keeper here, outside the bed's network, and waits until it has opened every door. */
async function openTheDoors(): Promise<void> {
  rmSync(files.openDoors, { force: true });
  const logFd = openSync(join(clusterDir, 'door-keeper.log'), 'a');
  // Its argument names the cluster directory, so that cluster:down finds and stops it with the bed's processes.
  const keeper = spawn(process.execPath, ['--import', 'tsx', join(repoRoot(), 'test/src/door-keeper.ts'), files.doors], {
    cwd: repoRoot(),
    detached: true,
    stdio: ['ignore', logFd, logFd],
  });
  keeper.unref();
  const { pid } = keeper;
  const exited = (): Error | undefined => (pid !== undefined && isAlive(pid) ? undefined : new Error(`the door keeper exited; see ${join(clusterDir, 'door-keeper.log')}`));
  await waitForValue('the doors open', () => Promise.resolve(openDoors()), 30_000, POLL_INTERVAL_MS, exited);
}

/** Serves the bed's doors from inside its network: the apiserver, and the console's Service once it exists. */
async function serveDoors(info: BedInfo): Promise<{ doors: Door[]; close(): void }> {
  const { serveDoor } = await import('./bed/door.js');
  const { PooledKubeConfig } = await import('@zk-oam/runtime');
  const { CoreV1Api } = await import('@kubernetes/client-node');
  const admin = new PooledKubeConfig();
  admin.loadFromFile(info.kubeconfig);
  const core = admin.makeApiClient(CoreV1Api);
  const apiServerPort = Number(new URL(info.server).port);
  const consoleTarget = async (): Promise<DoorTarget> => {
    const service = await core.readNamespacedService(CONSOLE_SERVICE);
    const port = service.spec?.ports?.[0]?.port;
    if (!service.spec?.clusterIP || port === undefined) throw new Error('the console Service has no address yet');
    return { host: service.spec.clusterIP, port };
  };
  const doorsDir = join(clusterDir, 'doors');
  mkdirSync(doorsDir, { recursive: true });
  const doors = [
    // The same port outside as inside: the kubeconfig's server works on both sides.
    { name: 'apiserver', port: apiServerPort, target: () => Promise.resolve({ host: '127.0.0.1', port: apiServerPort }) },
    { name: 'console', port: 0, target: consoleTarget },
  ];
  const served = await Promise.all(
    doors.map(async ({ name, port, target }) => {
      const socket = join(doorsDir, `${name}.sock`);
      return { door: { name, socket, port }, server: await serveDoor(socket, target) };
    }),
  );
  return {
    doors: served.map(({ door }) => door),
    close: () => {
      for (const { server } of served) server.close();
    },
  };
}

/** The background process: holds the bed until SIGTERM/SIGINT. */
async function daemon(): Promise<number> {
  // Loaded here, not at the top: `up` and `down` run without the bed's modules, so the daemon starts sooner.
  const { resolveBinaries, startBed } = await import('./bed/index.js');
  const { DEFAULT_INSTALL, installedImages } = await import('./controllers/install.js');
  const log = pino({ name: 'bed-daemon' });
  // The default install's images alone: npm start builds the separate install's once it has shown the system working.
  const bed = await startBed({ dir: clusterDir, log, binaries: await resolveBinaries(process.env), ourImages: installedImages(DEFAULT_INSTALL) });
  writeFileSync(files.nats, `${JSON.stringify(bed.info.nats, null, 2)}\n`, { mode: 0o600 });
  const doors = await serveDoors(bed.info);
  writeFileSync(files.doors, `${JSON.stringify(doors.doors, null, 2)}\n`);
  writeFileSync(files.ready, `${JSON.stringify(bed.info, null, 2)}\n`, { mode: 0o600 });
  const signal = await new Promise<NodeJS.Signals>((resolve) => {
    process.once('SIGTERM', resolve);
    process.once('SIGINT', resolve);
  });
  log.info({ signal }, 'stopping the test bed');
  rmSync(files.ready, { force: true });
  doors.close();
  await bed.stop();
  // A connection still open through a door (a kubectl watch, say) would keep the daemon alive; the bed is gone.
  process.exit(0);
}

const commands: Record<string, () => Promise<number>> = { up, down, daemon };
const command = commands[process.argv[2] ?? ''];
if (!command) {
  process.stderr.write('usage: cli.ts up|down\n');
  process.exitCode = 2;
} else {
  process.exitCode = await command();
}
