// Bed child processes: logs and pid files, SIGKILL after the grace period, restarts by the supervisor,
// and reaping by command line.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { LOCAL_POLL_INTERVAL_MS, waitFor } from '../wait-for.js';
import { BedProcessError } from './errors.js';
import { exitEndsWait, startProcess, type ManagedProcess } from './process.js';
import { isAlive, processesMentioning, reapProcessesMentioning } from './reap.js';
import { supervise } from './supervise.js';
import { pause } from '@zk-oam/runtime';

const bedDir = mkdtempSync(join(tmpdir(), 'bed-process-'));
const started: ManagedProcess[] = [];

async function logShows(child: ManagedProcess, text: string): Promise<void> {
  await waitFor(`${JSON.stringify(text)} in ${child.logFile}`, () => Promise.resolve(readFileSync(child.logFile, 'utf8')), (log) => log.includes(text), 10_000, LOCAL_POLL_INTERVAL_MS);
}

function shell(name: string, script: string): ManagedProcess {
  const child = startProcess({ name, command: 'sh', args: ['-c', script, bedDir], bedDir });
  started.push(child);
  return child;
}

describe('bed child processes', () => {
  afterAll(async () => {
    await Promise.all(started.map((child) => child.stop(100)));
    await reapProcessesMentioning(`${bedDir}/`, 100);
    rmSync(bedDir, { recursive: true, force: true });
  });

  it('writes output to logs/<name>.log and keeps a pid file only while running', async () => {
    const child = shell('echoer', 'echo hello from the child; sleep 5');
    const pidFile = join(bedDir, 'pids', 'echoer.pid');
    expect(readFileSync(pidFile, 'utf8').trim()).toBe(String(child.pid));
    await logShows(child, 'hello from the child');

    await child.stop();

    expect(existsSync(pidFile)).toBe(false);
    expect(isAlive(child.pid)).toBe(false);
  });

  it('kills a process that ignores SIGTERM once the grace period is over', async () => {
    const child = shell('stubborn', "trap '' TERM; echo trapped; while :; do sleep 0.1; done");
    await logShows(child, 'trapped');

    const status = await child.stop(300);

    expect(status.signal).toBe('SIGKILL');
  });

  it('ends a wait on a process that exits, naming it, how it ended and its log, long before the timeout', async () => {
    const child = shell('short-lived', 'sleep 0.2; exit 7');
    const startedAt = performance.now();

    const waiting = waitFor('a port that never opens', () => Promise.resolve(false), Boolean, 30_000, LOCAL_POLL_INTERVAL_MS, exitEndsWait([child]));

    await expect(waiting).rejects.toBeInstanceOf(BedProcessError);
    await expect(waiting).rejects.toThrow(`short-lived exited with code 7 while waiting for a port that never opens (log: ${child.logFile})`);
    expect(performance.now() - startedAt).toBeLessThan(5_000);
  });

  it('starts a supervised process again after it exits on its own, and not after stop()', async () => {
    const start = (): Promise<ManagedProcess> => Promise.resolve(shell('flaky', 'sleep 0.2; exit 3'));
    const supervised = supervise(await start(), start, pino({ level: 'silent' }));
    const firstPid = supervised.pid;

    await waitFor('the supervised process started again', () => Promise.resolve(supervised.pid), (pid) => pid !== firstPid, 5_000, LOCAL_POLL_INTERVAL_MS);
    await supervised.stop(100);
    const lastPid = supervised.pid;
    await pause(1_500);

    expect(supervised.pid).toBe(lastPid);
    expect(supervised.isRunning()).toBe(false);
  });

  it('reaps processes whose command line mentions the bed directory', async () => {
    const marker = join(bedDir, 'orphan-marker');
    // A process that forks nothing: sh forked `sleep`, whose command line is its parent's until it execs, so on a loaded
    // machine the reap now and then found two processes mentioning the marker.
    const orphan = startProcess({ name: 'orphan', command: process.execPath, args: ['-e', 'setTimeout(() => {}, 30_000)', marker], bedDir });
    started.push(orphan);
    // Until exec() completes, the child's command line is still its parent's.
    const mentioning = (): Promise<number[]> => Promise.resolve(processesMentioning(marker).map((p) => p.pid));
    await waitFor('the orphan to show the marker in its command line', mentioning, (pids) => pids.length === 1 && pids[0] === orphan.pid, 10_000, LOCAL_POLL_INTERVAL_MS);

    const reaped = await reapProcessesMentioning(marker, 1_000);

    expect(reaped.map((p) => p.pid)).toEqual([orphan.pid]);
    expect(processesMentioning(marker)).toEqual([]);
  });
});
