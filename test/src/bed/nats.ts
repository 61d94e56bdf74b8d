// The bed's NATS server: Debian's nats-server with JetStream and password auth, on loopback or the bed's own address,
// restartable on the same port and store so clients reconnect and JetStream state survives.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, openSync, closeSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pino, type Logger } from 'pino';
import { freePort } from './ports.js';
import { waitFor } from '../wait-for.js';
import { pause } from '@zk-oam/runtime';

export interface NatsServer {
  /** nats://<host>:<port> */
  url: string;
  /** The full-rights user (publish, subscribe, JetStream API). */
  user: string;
  password: string;
  /** Stops the server: SIGTERM, then SIGKILL after a grace period. */
  stop(): Promise<void>;
  /** Starts it again after stop(), on the same port and JetStream store. */
  start(): Promise<void>;
}

export interface StartNatsOptions {
  /** State directory: nats.conf, nats.log and the JetStream store (jetstream/) go in it. */
  dir: string;
  log?: Logger;
  /** The address clients connect to, and the only one it listens on: 127.0.0.1 when omitted; the bed's address on its
   * network (bed-network.ts) when pods connect too. */
  host?: string;
  /** Client port; a free port when omitted. */
  port?: number;
  /** nats-server binary; Debian's when omitted. */
  binary?: string;
}

export interface NatsConfigInput {
  host: string;
  port: number;
  monitorPort: number;
  storeDir: string;
  user: string;
  password: string;
}

export class NatsServerError extends Error {
  constructor(message: string, readonly context: { dir: string; logFile: string }, options?: ErrorOptions) {
    super(`${message} (log: ${context.logFile})`, options);
    this.name = 'NatsServerError';
  }
}

const READY_TIMEOUT_MS = 20_000;
const STOP_GRACE_MS = 5_000;
const DEBIAN_BINARIES = ['/usr/sbin/nats-server', '/usr/bin/nats-server'];

/** Renders nats.conf: clients on one address, monitoring on loopback, JetStream with bounded stores, one password user, no clustering. */
export function renderNatsConfig(input: NatsConfigInput): string {
  const quote = (value: string): string => JSON.stringify(value);
  return [
    `listen: ${quote(`${input.host}:${input.port}`)}`,
    `http: ${quote(`127.0.0.1:${input.monitorPort}`)}`,
    'server_name: zkoam_bed',
    'jetstream {',
    `  store_dir: ${quote(input.storeDir)}`,
    '  max_memory_store: 64MB',
    '  max_file_store: 512MB',
    '}',
    'authorization {',
    '  users = [',
    `    { user: ${quote(input.user)}, password: ${quote(input.password)} }`,
    '  ]',
    '}',
    '',
  ].join('\n');
}

/** Starts nats-server and resolves once it reports healthy with JetStream enabled. */
export async function startNats(options: StartNatsOptions): Promise<NatsServer> {
  const log = (options.log ?? pino({ level: 'silent' })).child({ component: 'nats-server' });
  const binary = options.binary ?? findNatsServerBinary();
  await mkdir(options.dir, { recursive: true });
  const host = options.host ?? '127.0.0.1';
  const port = options.port ?? (await freePort());
  const monitorPort = await freePort();
  const user = 'zkoam';
  const password = randomBytes(18).toString('base64url');
  const configFile = join(options.dir, 'nats.conf');
  const logFile = join(options.dir, 'nats.log');
  const context = { dir: options.dir, logFile };
  await writeFile(
    configFile,
    renderNatsConfig({ host, port, monitorPort, storeDir: join(options.dir, 'jetstream'), user, password }),
    { mode: 0o600 },
  );

  let child: ChildProcess | undefined;

  const start = async (): Promise<void> => {
    if (child !== undefined) return;
    const logFd = openSync(logFile, 'a');
    try {
      child = spawn(binary, ['-c', configFile], { stdio: ['ignore', logFd, logFd] });
    } finally {
      closeSync(logFd);
    }
    const started = child;
    started.once('exit', (code, signal) => {
      if (child === started) child = undefined;
      log.info({ code, signal }, 'nats-server exited');
    });
    log.info({ pid: started.pid, port, configFile }, 'starting nats-server');
    const t0 = Date.now();
    await waitUntilHealthy(started, monitorPort, context);
    log.info({ pid: started.pid, port, ms: Date.now() - t0 }, 'nats-server is ready');
  };

  const stop = async (): Promise<void> => {
    const running = child;
    if (running === undefined) return;
    await terminate(running);
    child = undefined;
    log.info({ port }, 'nats-server stopped');
  };

  try {
    await start();
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: `nats://${host}:${port}`, user, password, stop, start };
}

function findNatsServerBinary(): string {
  return DEBIAN_BINARIES.find((path) => existsSync(path)) ?? 'nats-server';
}

async function waitUntilHealthy(
  child: ChildProcess,
  monitorPort: number,
  context: { dir: string; logFile: string },
): Promise<void> {
  let exited = false;
  let spawnError: Error | undefined;
  child.once('exit', () => (exited = true));
  child.once('error', (error) => (spawnError = error));
  const giveUp = (): Error | undefined => {
    if (spawnError !== undefined) return new NatsServerError(`nats-server could not be started: ${spawnError.message}`, context, { cause: spawnError });
    return exited ? new NatsServerError(`nats-server exited during start-up: ${tail(context.logFile)}`, context) : undefined;
  };
  const healthy = async (): Promise<boolean> => {
    const response = await fetch(`http://127.0.0.1:${monitorPort}/healthz?js-enabled-only=true`, { signal: AbortSignal.timeout(1_000) });
    if (response.ok) return true;
    throw new Error(`healthz answered ${response.status}: ${await response.text()}`);
  };
  try {
    await waitFor('nats-server healthy', healthy, () => true, READY_TIMEOUT_MS, 100, giveUp);
  } catch (error) {
    if (error instanceof NatsServerError) throw error;
    await terminate(child);
    const cause = error instanceof Error ? error.cause : undefined;
    throw new NatsServerError(`nats-server not healthy after ${READY_TIMEOUT_MS} ms (${cause instanceof Error ? cause.message : 'no answer'})`, context, { cause: error });
  }
}

async function terminate(child: ChildProcess): Promise<void> {
  const neverStarted = child.pid === undefined;
  if (neverStarted || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const graceful = await Promise.race([exited.then(() => true), pause(STOP_GRACE_MS).then(() => false)]);
  if (!graceful) {
    child.kill('SIGKILL');
    await exited;
  }
}

function tail(file: string): string {
  try {
    return readFileSync(file, 'utf8').trim().split('\n').slice(-5).join(' | ');
  } catch {
    return 'no log written';
  }
}
