// The runc command line under one state root (`runc --root`): the bed's containers, apart from any other user of runc
// on the machine. Signals, exec, list and delete; `runc run` itself is started by container-run.ts, which supervises it.
import { spawn } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import { z } from 'zod';
import { runCommand } from '../controllers/command.js';
import { CommandError, NO_TIME_LIMIT } from '../images/command.js';
import { LOCAL_POLL_INTERVAL_MS, waitFor } from '../wait-for.js';

/** `runc list --format json` prints `null` when there is no container. */
const listSchema = z.array(z.object({ id: z.string(), pid: z.number(), status: z.string(), bundle: z.string() })).nullable();
export type ListedContainer = NonNullable<z.infer<typeof listSchema>>[number];

export type ContainerSignal = 'TERM' | 'KILL';

/** What runc says of a container that has already stopped or gone: nothing left to signal. */
const goneMessage = /container not running|does not exist|process already finished/;

export interface ExecOutcome {
  /** null: killed after its time ran out. */
  readonly exitCode: number | null;
  /** The end of its stdout and stderr. */
  readonly output: string;
}

export class Runc {
  constructor(readonly root: string) {}

  /** The arguments of a foreground `runc run` of the bundle, writing its first process's host pid to `pidFile`. */
  runArgs(id: string, bundle: string, pidFile: string): string[] {
    return ['--root', this.root, 'run', '--bundle', bundle, '--pid-file', pidFile, id];
  }

  /** Signals the container's first process; a container that has already stopped or gone is not an error. */
  async kill(id: string, signal: ContainerSignal): Promise<void> {
    const result = await runCommand('runc', ['--root', this.root, 'kill', id, signal], '', NO_TIME_LIMIT);
    if (result.code !== 0 && !goneMessage.test(result.stderr)) throw new CommandError(`runc kill ${id} ${signal}`, result.code, result.stderr);
  }

  async list(): Promise<ListedContainer[]> {
    const result = await runCommand('runc', ['--root', this.root, 'list', '--format', 'json'], '', NO_TIME_LIMIT);
    if (result.code !== 0) throw new CommandError('runc list', result.code, result.stderr);
    return listSchema.parse(JSON.parse(result.stdout)) ?? [];
  }

  /** Removes the container, killing what still runs in it. */
  async delete(id: string): Promise<void> {
    const result = await runCommand('runc', ['--root', this.root, 'delete', '--force', id], '', NO_TIME_LIMIT);
    if (result.code !== 0 && !goneMessage.test(result.stderr)) throw new CommandError(`runc delete ${id}`, result.code, result.stderr);
  }

  /**
   * Runs `args` in the running container, with its process's environment, user and working directory (runc takes them
   * from the bundle's config.json). After `timeoutMs` the exec'd process itself is killed: killing `runc exec` alone
   * would leave it running in the container.
   */
  async exec(id: string, args: readonly string[], pidFile: string, timeoutMs: number): Promise<ExecOutcome> {
    const child = spawn('runc', ['--root', this.root, 'exec', '--pid-file', pidFile, id, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const collect = (chunk: Buffer): void => {
      output = (output + chunk.toString()).slice(-500);
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    const exited = new Promise<number | null>((resolve) => {
      child.once('error', (error) => {
        output += error.message;
        resolve(128);
      });
      child.once('close', (code) => resolve(code));
    });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      void killExecd(pidFile, exited);
    }, timeoutMs);
    try {
      const code = await exited;
      return { exitCode: timedOut ? null : code, output: output.trim() };
    } finally {
      clearTimeout(timer);
      await rm(pidFile, { force: true });
    }
  }
}

/** SIGKILL to the exec'd process once runc has written its pid; nothing when the exec ends first. */
async function killExecd(pidFile: string, exited: Promise<unknown>): Promise<void> {
  let ended = false;
  void exited.then(() => (ended = true));
  const pid = await waitFor(
    `the pid of an exec'd process in ${pidFile}`,
    async () => Number((await readFile(pidFile, 'utf8')).trim()),
    (value) => Number.isInteger(value) && value > 0,
    10_000,
    LOCAL_POLL_INTERVAL_MS,
    () => (ended ? new Error('the exec ended') : undefined),
  ).catch(() => undefined);
  if (pid === undefined) return;
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // It ended on its own meanwhile.
  }
}
