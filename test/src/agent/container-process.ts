// Runs a container's command as a local process group and restarts it with backoff, like kubelet does a container.
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import type { Logger } from 'pino';
import { backoffDelayMs, pause } from '@zk-oam/runtime';
import { restartBackoff, restartBackoffResetMs } from './restart-backoff.js';
import { killGroup } from './pid-registry.js';

export interface ContainerLaunch {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
  logFile: string;
}

export type RestartPolicy = 'Always' | 'OnFailure' | 'Never';

export type ContainerState =
  | { kind: 'waiting'; reason: string; message?: string }
  | { kind: 'running'; startedAt: Date }
  | { kind: 'terminated'; exitCode: number; signal?: string; reason: string; startedAt: Date; finishedAt: Date };

export interface ContainerSnapshot {
  state: ContainerState;
  lastTerminated?: Extract<ContainerState, { kind: 'terminated' }>;
  restartCount: number;
  pid?: number;
}

export interface ContainerProcessHooks {
  onChange(): void;
  onStarted(pid: number): Promise<void>;
  onExited(): Promise<void>;
}

/** One supervised container: start() once, restart() on liveness failure, stop() when the pod goes. */
export class ContainerProcess {
  private state: ContainerState = { kind: 'waiting', reason: 'ContainerCreating' };
  private lastTerminated: Extract<ContainerState, { kind: 'terminated' }> | undefined;
  private restartCount = 0;
  private child: ChildProcess | undefined;
  private exited: Promise<void> = Promise.resolve();
  private readonly stopping = new AbortController();
  private loop: Promise<void> | undefined;

  constructor(
    private readonly launch: ContainerLaunch,
    private readonly restartPolicy: RestartPolicy,
    private readonly log: Logger,
    private readonly hooks: ContainerProcessHooks,
  ) {}

  start(): void {
    this.loop ??= this.run();
  }

  snapshot(): ContainerSnapshot {
    return { state: this.state, lastTerminated: this.lastTerminated, restartCount: this.restartCount, pid: this.child?.pid };
  }

  /** Kills the running process (liveness failure); the loop starts it again. */
  restart(reason: string): void {
    const pid = this.child?.pid;
    if (pid !== undefined) {
      this.log.warn({ containerPid: pid, reason }, 'restarting container');
      killGroup(pid, 'SIGKILL');
    }
  }

  /** SIGTERM to the process group, SIGKILL after the grace period; resolves once it is gone. */
  async stop(graceMs: number): Promise<void> {
    this.stopping.abort();
    const pid = this.child?.pid;
    if (pid !== undefined && this.child?.exitCode === null && this.child.signalCode === null) {
      this.log.info({ containerPid: pid, graceMs }, 'stopping container: SIGTERM to its process group');
      killGroup(pid, 'SIGTERM');
      const timedOut = await Promise.race([this.exited.then(() => false), pause(graceMs).then(() => true)]);
      if (timedOut) {
        this.log.warn({ containerPid: pid }, 'container outlived its grace period: SIGKILL');
        killGroup(pid, 'SIGKILL');
      }
    }
    await this.exited;
    await this.loop;
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (!this.stopping.signal.aborted) {
      const startedAt = new Date();
      const exit = await this.runOnce(startedAt).catch((error: unknown) => this.failedToRun(error, startedAt));
      if (this.stopping.signal.aborted || !this.shouldRestart(exit.exitCode)) {
        return;
      }
      failures = Date.now() - startedAt.getTime() >= restartBackoffResetMs ? 1 : failures + 1;
      const delay = backoffDelayMs(failures - 1, restartBackoff);
      this.log.warn({ exitCode: exit.exitCode, signal: exit.signal, delayMs: delay }, 'container exited; restarting after backoff');
      this.setState({ kind: 'waiting', reason: 'CrashLoopBackOff', message: `back-off ${delay}ms restarting failed container` });
      await pause(delay, this.stopping.signal);
      if (!this.stopping.signal.aborted) {
        this.restartCount += 1;
      }
    }
  }

  /** The process could not even be spawned (log file unwritable, ...): reported like a failed start, then retried. */
  private failedToRun(error: unknown, startedAt: Date): { exitCode: number; signal?: string } {
    this.log.error({ err: error }, 'container could not be started');
    const terminated = { kind: 'terminated', exitCode: 128, reason: 'StartError', startedAt, finishedAt: new Date() } as const;
    this.lastTerminated = terminated;
    this.setState(terminated);
    return { exitCode: 128 };
  }

  private shouldRestart(exitCode: number): boolean {
    switch (this.restartPolicy) {
      case 'Always':
        return true;
      case 'OnFailure':
        return exitCode !== 0;
      case 'Never':
        return false;
    }
  }

  private async runOnce(startedAt: Date): Promise<{ exitCode: number; signal?: string }> {
    const output = openSync(this.launch.logFile, 'a');
    let child: ChildProcess;
    try {
      child = spawn(this.launch.command, this.launch.args, {
        cwd: this.launch.cwd,
        env: this.launch.env,
        detached: true,
        stdio: ['ignore', output, output],
      });
    } finally {
      closeSync(output);
    }
    this.child = child;
    const exit = new Promise<{ exitCode: number; signal?: string; error?: Error }>((resolve) => {
      child.once('error', (error) => resolve({ exitCode: 128, error }));
      child.once('exit', (code, signal) => resolve({ exitCode: code ?? 128 + signalNumber(signal), signal: signal ?? undefined }));
    });
    this.exited = exit.then(() => undefined);
    if (child.pid !== undefined) {
      this.log.info({ containerPid: child.pid, command: this.launch.command, args: this.launch.args }, 'container started');
      this.setState({ kind: 'running', startedAt });
      await this.hooks.onStarted(child.pid).catch((error: unknown) => this.log.error({ err: error }, 'recording pid failed'));
    }
    const result = await exit;
    if (child.pid !== undefined) {
      killGroup(child.pid, 'SIGKILL'); // leftovers of the group would keep the pod's ports
    }
    const reason = result.error !== undefined ? 'StartError' : result.exitCode === 0 ? 'Completed' : 'Error';
    const terminated = { kind: 'terminated', exitCode: result.exitCode, signal: result.signal, reason, startedAt, finishedAt: new Date() } as const;
    this.log.info({ exitCode: result.exitCode, signal: result.signal, error: result.error?.message }, 'container exited');
    this.lastTerminated = terminated;
    this.setState(terminated);
    await this.hooks.onExited().catch((error: unknown) => this.log.error({ err: error }, 'forgetting pid failed'));
    return result;
  }

  private setState(state: ContainerState): void {
    this.state = state;
    this.hooks.onChange();
  }
}

function signalNumber(signal: NodeJS.Signals | null): number {
  return signal === 'SIGKILL' ? 9 : signal === 'SIGTERM' ? 15 : 0;
}
