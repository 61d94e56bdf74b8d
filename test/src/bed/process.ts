// A child process of the bed: output to <dir>/logs/<name>.log, pid recorded in <dir>/pids/<name>.pid,
// stopped with SIGTERM and then SIGKILL after a grace period.
import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { GiveUp } from '../wait-for.js';
import { BedProcessError } from './errors.js';

export interface ExitStatus {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ManagedProcess {
  readonly name: string;
  readonly pid: number;
  readonly logFile: string;
  /** Settles when the process has exited, for whatever reason. */
  readonly exited: Promise<ExitStatus>;
  isRunning(): boolean;
  /** SIGTERM, then SIGKILL once graceMs has passed; resolves when the process is gone. */
  stop(graceMs?: number): Promise<ExitStatus>;
  /** SIGKILL without waiting: for process exit handlers, which cannot wait. */
  killNow(): void;
}

export interface ProcessSpec {
  name: string;
  command: string;
  args: string[];
  /** The bed directory: logs/ and pids/ live under it. */
  bedDir: string;
  cwd?: string;
  env?: NodeJS.ProcessEnv;
}

const defaultGraceMs = 10_000;

export function startProcess(spec: ProcessSpec): ManagedProcess {
  const logDir = join(spec.bedDir, 'logs');
  const pidDir = join(spec.bedDir, 'pids');
  mkdirSync(logDir, { recursive: true });
  mkdirSync(pidDir, { recursive: true });
  const logFile = join(logDir, `${spec.name}.log`);
  const pidFile = join(pidDir, `${spec.name}.pid`);
  const logFd = openSync(logFile, 'a');
  const child = (() => {
    try {
      return spawn(spec.command, spec.args, {
        cwd: spec.cwd ?? spec.bedDir,
        env: spec.env ?? process.env,
        stdio: ['ignore', logFd, logFd],
      });
    } finally {
      closeSync(logFd);
    }
  })();
  const pid = child.pid;
  if (pid === undefined) {
    throw new BedProcessError(`could not start ${spec.command}`, spec.name, logFile);
  }
  writeFileSync(pidFile, `${pid}\n`);
  let running = true;
  const exited = new Promise<ExitStatus>((resolve) => {
    child.once('exit', (code, signal) => {
      running = false;
      rmSync(pidFile, { force: true });
      resolve({ code, signal });
    });
  });

  const stop = async (graceMs = defaultGraceMs): Promise<ExitStatus> => {
    if (!running) return exited;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    try {
      return await exited;
    } finally {
      clearTimeout(timer);
    }
  };

  return {
    name: spec.name,
    pid,
    logFile,
    exited,
    isRunning: () => running,
    stop,
    killNow: () => {
      if (running) child.kill('SIGKILL');
    },
  };
}

/** Describes how a process ended, for error messages. */
export function describeExit(status: ExitStatus): string {
  return status.signal ? `killed by ${status.signal}` : `exited with code ${String(status.code)}`;
}

/** Ends a wait on something `processes` provide as soon as one of them has exited, naming it and its log. */
export function exitEndsWait(processes: readonly ManagedProcess[]): GiveUp {
  return async (what) => {
    const dead = processes.find((p) => !p.isRunning());
    if (dead === undefined) return undefined;
    return new BedProcessError(`${dead.name} ${describeExit(await dead.exited)} while waiting for ${what}`, dead.name, dead.logFile);
  };
}

/** Starts a process and waits until `ready` resolves; stops it again when waiting fails, so nothing leaks. */
export async function startWhenReady(
  spec: ProcessSpec,
  ready: (process: ManagedProcess) => Promise<unknown>,
): Promise<ManagedProcess> {
  const started = startProcess(spec);
  try {
    await ready(started);
    return started;
  } catch (error) {
    await started.stop();
    throw error;
  }
}

/**
 * If this process dies without stopping them, the children `children()` names then must not outlive it: SIGKILL from
 * the exit handler. Returns the call that forgets them, for once they are stopped.
 */
export function killOnProcessExit(children: () => readonly Pick<ManagedProcess, 'killNow'>[]): () => void {
  const kill = (): void => children().forEach((child) => child.killNow());
  process.once('exit', kill);
  return () => process.removeListener('exit', kill);
}
