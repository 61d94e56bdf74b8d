// Supervising a container: restart backoff, restart policy, SIGTERM then SIGKILL, a stop that comes while it starts.
// The launcher is a fake whose runs end when told; test/images/runc-runtime.test.ts supervises real runc containers.
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import type { ContainerExit, StartedContainer } from '../containers/container-run.js';
import type { ContainerSignal } from '../containers/runc.js';
import { ContainerProcess, type ContainerLauncher, type RestartPolicy } from './container-process.js';
import { waitForValue } from '../wait-for.js';

const log = pino({ level: 'silent' });
const started: ContainerProcess[] = [];

afterEach(async () => {
  await Promise.all(started.splice(0).map((container) => container.stop(100)));
});

/** A run that exits with `exitCode` at once, or, without one, when killed; `ignoresTerm` makes it wait for SIGKILL. */
function fakeRun(start: number, behaviour: { exitCode?: number; ignoresTerm?: boolean }, signals: ContainerSignal[]): StartedContainer {
  let end: (exit: ContainerExit) => void = () => undefined;
  const exited = new Promise<ContainerExit>((resolve) => (end = resolve));
  if (behaviour.exitCode !== undefined) end({ exitCode: behaviour.exitCode });
  return {
    id: `run-${String(start)}`,
    pid: 1000 + start,
    exited,
    kill: (signal) => {
      signals.push(signal);
      if (signal === 'KILL') end({ exitCode: 137, signal: 'SIGKILL' });
      else if (behaviour.ignoresTerm !== true) end({ exitCode: 143, signal: 'SIGTERM' });
      return Promise.resolve();
    },
    exec: () => Promise.resolve({ exitCode: 0, output: '' }),
  };
}

function supervise(launcher: ContainerLauncher, policy: RestartPolicy): ContainerProcess {
  const container = new ContainerProcess(launcher, policy, log, { onChange: () => undefined, onStarted: async () => undefined, onExited: async () => undefined });
  started.push(container);
  container.start();
  return container;
}

describe('ContainerProcess', () => {
  it('restarts a crashing container after a backoff, a new run each time, and counts the restarts', async () => {
    const starts: number[] = [];
    const crashing = supervise((start) => {
      starts.push(start);
      return Promise.resolve(fakeRun(start, { exitCode: 3 }, []));
    }, 'Always');

    await waitForValue('a restart', async () => (crashing.snapshot().restartCount >= 1 && starts.length >= 2 ? true : undefined), 10_000, 100);

    expect(starts.slice(0, 2)).toEqual([0, 1]);
    expect(crashing.snapshot().lastTerminated).toMatchObject({ exitCode: 3, reason: 'Error' });
  });

  it('does not restart a container that completed under restartPolicy OnFailure', async () => {
    let starts = 0;
    const finishing = supervise((start) => {
      starts += 1;
      return Promise.resolve(fakeRun(start, { exitCode: 0 }, []));
    }, 'OnFailure');

    await waitForValue('completion', async () => (finishing.snapshot().state.kind === 'terminated' ? true : undefined), 10_000, 100);
    await finishing.stop(100);

    expect(starts).toBe(1);
    expect(finishing.snapshot()).toMatchObject({ restartCount: 0, state: { kind: 'terminated', reason: 'Completed' } });
  });

  it('reports a container that cannot start as StartError, and tries again', async () => {
    let starts = 0;
    const failing = supervise(() => {
      starts += 1;
      return Promise.reject(new Error('runc: no such image'));
    }, 'Always');

    await waitForValue('a second attempt', async () => (starts >= 2 ? true : undefined), 10_000, 100);

    expect(failing.snapshot().lastTerminated).toMatchObject({ exitCode: 128, reason: 'StartError' });
  });

  it('kills a container that ignores SIGTERM once the grace period is over', async () => {
    const signals: ContainerSignal[] = [];
    const stubborn = supervise((start) => Promise.resolve(fakeRun(start, { ignoresTerm: true }, signals)), 'Always');
    await waitForValue('the container to run', async () => (stubborn.snapshot().state.kind === 'running' ? true : undefined), 10_000, 50);

    const began = Date.now();
    await stubborn.stop(500);

    expect(Date.now() - began).toBeGreaterThanOrEqual(500);
    expect(signals).toEqual(['TERM', 'KILL']);
    expect(stubborn.snapshot()).toMatchObject({ state: { kind: 'terminated', exitCode: 137, signal: 'SIGKILL' }, id: undefined, pid: undefined });
  });

  it('stops a container whose start was under way when the stop came', async () => {
    const signals: ContainerSignal[] = [];
    let finishStart: () => void = () => undefined;
    const slow = supervise((start) => new Promise((resolve) => (finishStart = () => resolve(fakeRun(start, {}, signals)))), 'Always');
    await waitForValue('the start to be under way', async () => (slow.snapshot().state.kind === 'waiting' ? true : undefined), 10_000, 50);

    const stopped = slow.stop(1_000);
    finishStart();
    await stopped;

    expect(signals).toEqual(['TERM']);
    expect(slow.snapshot().state).toMatchObject({ kind: 'terminated', exitCode: 143 });
  });
});
