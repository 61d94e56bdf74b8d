// Supervises one container of a pod like kubelet does: starts it through a launcher, restarts it with backoff under its
// restart policy, stops it with SIGTERM, a grace period and SIGKILL, and keeps the states its status is rendered from.
import type { Logger } from 'pino';
import { backoffDelayMs, pause } from '@zk-oam/runtime';
import type { ExecOutcome } from '../containers/runc.js';
import { stopContainer, type ContainerExit, type StartedContainer } from '../containers/container-run.js';
import { restartBackoff, restartBackoffResetMs } from './restart-backoff.js';

export type RestartPolicy = 'Always' | 'OnFailure' | 'Never';

export type ContainerState =
  | { kind: 'waiting'; reason: string; message?: string }
  | { kind: 'running'; startedAt: Date }
  | { kind: 'terminated'; exitCode: number; signal?: string; reason: string; startedAt: Date; finishedAt: Date };

export interface ContainerSnapshot {
  state: ContainerState;
  lastTerminated?: Extract<ContainerState, { kind: 'terminated' }>;
  restartCount: number;
  /** The runtime's id of the current container and the host pid of its first process, while there is one. */
  id?: string;
  pid?: number;
}

/** Starts the container anew; `start` counts the starts of this supervisor, from 0. Throws when it cannot start. */
export type ContainerLauncher = (start: number) => Promise<StartedContainer>;

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
  private starts = 0;
  private current: StartedContainer | undefined;
  private readonly stopping = new AbortController();
  private stopGraceMs = 0;
  private loop: Promise<void> | undefined;

  constructor(
    private readonly launch: ContainerLauncher,
    private readonly restartPolicy: RestartPolicy,
    private readonly log: Logger,
    private readonly hooks: ContainerProcessHooks,
  ) {}

  start(): void {
    this.loop ??= this.run();
  }

  snapshot(): ContainerSnapshot {
    return { state: this.state, lastTerminated: this.lastTerminated, restartCount: this.restartCount, id: this.current?.id, pid: this.current?.pid };
  }

  /** Kills the running container (liveness failure); the loop starts it again. */
  restart(reason: string): void {
    const current = this.current;
    if (current !== undefined) {
      this.log.warn({ container: current.id, reason }, 'restarting container');
      current.kill('KILL').catch((error: unknown) => this.log.error({ err: error, container: current.id }, 'killing the container failed'));
    }
  }

  /** Runs a command in the running container (an exec probe); without one, a failure that says so. */
  exec(args: readonly string[], timeoutMs: number): Promise<ExecOutcome> {
    return this.current?.exec(args, timeoutMs) ?? Promise.resolve({ exitCode: 1, output: 'the container is not running' });
  }

  /** SIGTERM, SIGKILL after the grace period; resolves once the container is gone and the loop has ended. */
  async stop(graceMs: number): Promise<void> {
    this.stopGraceMs = graceMs;
    this.stopping.abort();
    if (this.current !== undefined) await this.terminate(this.current, graceMs);
    await this.loop;
  }

  private async terminate(run: StartedContainer, graceMs: number): Promise<void> {
    this.log.info({ container: run.id, containerPid: run.pid, graceMs }, 'stopping container: SIGTERM, SIGKILL after the grace period');
    const { killed } = await stopContainer(run, graceMs);
    if (killed) this.log.warn({ container: run.id }, 'container outlived its grace period: killed');
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

  /** The container could not be started (runc failed, the log unwritable, ...): reported like a failed start, then retried. */
  private failedToRun(error: unknown, startedAt: Date): ContainerExit {
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

  private async runOnce(startedAt: Date): Promise<ContainerExit> {
    const run = await this.launch(this.starts++);
    this.current = run;
    // Stopped while it was starting, so stop() found no container to signal; from here on stop() finds this one.
    if (this.stopping.signal.aborted) void this.terminate(run, this.stopGraceMs);
    this.log.info({ container: run.id, containerPid: run.pid }, 'container started');
    this.setState({ kind: 'running', startedAt });
    await this.hooks.onStarted(run.pid).catch((error: unknown) => this.log.error({ err: error }, 'recording pid failed'));
    const exit = await run.exited;
    this.current = undefined;
    const terminated = { kind: 'terminated', ...exit, reason: exit.exitCode === 0 ? 'Completed' : 'Error', startedAt, finishedAt: new Date() } as const;
    this.log.info({ container: run.id, exitCode: exit.exitCode, signal: exit.signal }, 'container exited');
    this.lastTerminated = terminated;
    this.setState(terminated);
    await this.hooks.onExited().catch((error: unknown) => this.log.error({ err: error }, 'forgetting pid failed'));
    return exit;
  }

  private setState(state: ContainerState): void {
    this.state = state;
    this.hooks.onChange();
  }
}
