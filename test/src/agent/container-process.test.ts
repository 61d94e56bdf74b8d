// Supervising a container process: restart backoff, restart policy, SIGTERM then SIGKILL.
import { setTimeout as sleep } from 'node:timers/promises';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ContainerProcess, type ContainerLaunch, type RestartPolicy } from './container-process.js';
import { waitForValue } from '../wait-for.js';

const log = pino({ level: 'silent' });
let dir = '';
const started: ContainerProcess[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'container-'));
});

afterEach(async () => {
  await Promise.all(started.splice(0).map((container) => container.stop(100)));
  await rm(dir, { recursive: true, force: true });
});

function container(script: string, policy: RestartPolicy): ContainerProcess {
  const launch: ContainerLaunch = { command: '/bin/bash', args: ['-c', script], env: { PATH: '/usr/bin:/bin' }, cwd: dir, logFile: join(dir, 'container.log') };
  const process = new ContainerProcess(launch, policy, log, { onChange: () => undefined, onStarted: async () => undefined, onExited: async () => undefined });
  started.push(process);
  process.start();
  return process;
}

describe('ContainerProcess', () => {
  it('restarts a crashing container after a backoff and counts the restarts', async () => {
    const crashing = container('echo started; exit 3', 'Always');

    await waitForValue('a restart', async () => (crashing.snapshot().restartCount >= 1 ? true : undefined), 10_000, 100);
    // The restarted process writes its line a moment after the restart is counted; under load that moment is long.
    const output = await waitForValue('the second start in the log', async () => {
      const text = await readFile(join(dir, 'container.log'), 'utf8');
      return text.includes('started\nstarted\n') ? text : undefined;
    }, 10_000, 100);

    expect(crashing.snapshot().lastTerminated).toMatchObject({ exitCode: 3, reason: 'Error' });
    expect(output).toContain('started\nstarted\n');
  });

  it('does not restart a container that completed under restartPolicy OnFailure', async () => {
    const finishing = container('exit 0', 'OnFailure');

    await waitForValue('completion', async () => (finishing.snapshot().state.kind === 'terminated' ? true : undefined), 10_000, 100);
    await sleep(1_500);

    expect(finishing.snapshot()).toMatchObject({ restartCount: 0, state: { kind: 'terminated', reason: 'Completed' } });
  });

  it('kills a container that ignores SIGTERM once the grace period is over', async () => {
    const stubborn = container("trap '' TERM; echo trapped; while true; do sleep 0.1; done", 'Always');
    await waitForValue('the container to ignore SIGTERM', async () => ((await readFile(join(dir, 'container.log'), 'utf8')).includes('trapped') ? true : undefined), 10_000, 50);
    const pid = stubborn.snapshot().pid ?? 0;

    const began = Date.now();
    await stubborn.stop(500);

    expect(Date.now() - began).toBeGreaterThanOrEqual(500);
    expect(() => process.kill(pid, 0)).toThrow();
    expect(stubborn.snapshot().state).toMatchObject({ kind: 'terminated', signal: 'SIGKILL' });
  });
});
