// One container run by runc from an unpacked image. Its bundle (config.json, an overlay root over the image's shared
// root) lives in a directory of its own; `runc run` in the foreground is the child to supervise: it waits for the
// container's first process and exits with its status, so no polling of `runc state` and no subreaper is needed.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { constants } from 'node:os';
import { join } from 'node:path';
import { pause } from '@zk-oam/runtime';
import { LOCAL_POLL_INTERVAL_MS, waitFor } from '../wait-for.js';
import type { ImageBundle } from './image-bundles.js';
import type { ContainerSignal, ExecOutcome, Runc } from './runc.js';
import { containerSpec, type RunOptions } from './runtime-spec.js';

/**
 * Mounts the overlay root and execs runc, inside the private mount namespace `unshare` made: the mount never shows in
 * the machine's namespace, and the kernel drops it with the container's last process, even if the agent was killed.
 */
const MOUNT_AND_RUN = 'mount -t overlay overlay -o "lowerdir=$1,upperdir=$2,workdir=$3" "$4" && shift 4 && exec runc "$@"';

/** How long runc may take from start to the container's first process, on a loaded machine. */
const START_TIMEOUT_MS = 60_000;

export interface ContainerExit {
  readonly exitCode: number;
  /** The signal that ended its first process, when one did (runc reports it as 128 + the signal's number). */
  readonly signal?: string;
}

export interface ContainerRequest {
  /** The container's id under the runc root: [\w.+-]+. */
  readonly id: string;
  /** The container's own directory (its bundle), made here and removed once it has exited. */
  readonly dir: string;
  readonly image: ImageBundle;
  readonly run: RunOptions;
  /** Open file descriptors for the container's stdout and stderr (the same one for a pod's log). */
  readonly stdout: number;
  readonly stderr: number;
}

export interface StartedContainer {
  readonly id: string;
  /** The host pid of the container's first process. */
  readonly pid: number;
  /** Resolves once the container has exited and its directory and runc state are gone. */
  readonly exited: Promise<ContainerExit>;
  kill(signal: ContainerSignal): Promise<void>;
  /** Runs a command in the container, as the container's process (env, user, working directory). */
  exec(args: readonly string[], timeoutMs: number): Promise<ExecOutcome>;
}

/** runc ended before the container's first process started: its output (in the container's log) says why. */
export class ContainerStartError extends Error {
  constructor(
    readonly id: string,
    readonly exitCode: number,
  ) {
    super(`container ${id} did not start: runc exited with ${String(exitCode)}`);
    this.name = 'ContainerStartError';
  }
}

function exitOf(code: number | null, signal: NodeJS.Signals | null): ContainerExit {
  const exitCode = code ?? 128 + (signal === null ? 0 : constants.signals[signal]);
  const byNumber = Object.entries(constants.signals).find(([, number]) => number === exitCode - 128)?.[0];
  return exitCode > 128 && byNumber !== undefined ? { exitCode, signal: byNumber } : { exitCode };
}

/** The pid runc wrote once the container's first process started; undefined before. */
async function readPid(pidFile: string): Promise<number | undefined> {
  const pid = Number((await readFile(pidFile, 'utf8').catch(() => '')).trim());
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

export async function startContainer(runc: Runc, request: ContainerRequest): Promise<StartedContainer> {
  const { id, dir, image } = request;
  const rootfs = join(dir, 'rootfs');
  const pidFile = join(dir, 'container.pid');
  await Promise.all(['rootfs', 'upper', 'work'].map((part) => mkdir(join(dir, part), { recursive: true })));
  await writeFile(join(dir, 'config.json'), JSON.stringify(containerSpec(image.spec, request.run)));
  const child = spawn(
    'unshare',
    ['--mount', '--propagation', 'private', 'sh', '-c', MOUNT_AND_RUN, 'sh', image.rootfs, join(dir, 'upper'), join(dir, 'work'), rootfs, ...runc.runArgs(id, dir, pidFile)],
    // Its own process group: a signal to the agent's group is the agent's to pass on, with a grace period.
    { stdio: ['ignore', request.stdout, request.stderr], detached: true },
  );
  let ended = false;
  const exit = new Promise<ContainerExit>((resolve) => {
    child.once('error', () => resolve({ exitCode: 128 }));
    child.once('exit', (code, signal) => resolve(exitOf(code, signal)));
  });
  void exit.then(() => (ended = true));
  const cleanUp = async (): Promise<ContainerExit> => {
    const exited = await exit;
    // runc run removes the container as it exits; a runc run that was itself killed would leave it running.
    await runc.delete(id);
    await rm(dir, { recursive: true, force: true });
    return exited;
  };
  const pid = await waitFor(
    `container ${id} to start`,
    () => readPid(pidFile),
    (value) => value !== undefined,
    START_TIMEOUT_MS,
    LOCAL_POLL_INTERVAL_MS,
    () => (ended ? new Error('runc exited') : undefined),
  ).catch(() => readPid(pidFile)); // once more: a container that ended at once did start, and runc wrote its pid first
  if (pid === undefined) {
    await runc.kill(id, 'KILL');
    // A runc that never made the container has nothing to kill: end it and the shell before it.
    if (!ended && child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    throw new ContainerStartError(id, (await cleanUp()).exitCode);
  }
  const exited = cleanUp();
  return {
    id,
    pid,
    exited,
    kill: (signal) => runc.kill(id, signal),
    exec: (args, timeoutMs) => runc.exec(id, args, join(dir, `exec-${randomUUID().slice(0, 8)}.pid`), timeoutMs),
  };
}

/** SIGTERM, and SIGKILL if it has not exited `graceMs` later; resolves once it has exited, saying whether it took SIGKILL. */
export async function stopContainer(container: Pick<StartedContainer, 'kill' | 'exited'>, graceMs: number): Promise<{ killed: boolean }> {
  await container.kill('TERM');
  const exitedInTime = new AbortController();
  const killed = await Promise.race([
    container.exited.then(() => false),
    pause(graceMs, exitedInTime.signal).then(() => !exitedInTime.signal.aborted),
  ]);
  exitedInTime.abort();
  if (killed) await container.kill('KILL');
  await container.exited;
  return { killed };
}
