// A restarted agent kills the process groups its predecessor left, and nothing else.
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { isAlive } from '../bed/index.js';
import { waitForValue } from '../wait-for.js';
import { PidRegistry, podDirEnvName } from './pid-registry.js';

describe('PidRegistry', () => {
  it('kills the process group an earlier agent recorded, and only when it carries the pod-dir marker', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pids-'));
    const ours = spawn('/bin/sleep', ['300'], { detached: true, stdio: 'ignore', env: { [podDirEnvName]: dir } });
    const foreign = spawn('/bin/sleep', ['300'], { detached: true, stdio: 'ignore', env: {} });
    try {
      const registry = new PidRegistry(join(dir, 'pids'));
      await registry.record('ns/ours', ours.pid ?? 0);
      await registry.record('ns/foreign', foreign.pid ?? 0);

      await registry.killStale(pino({ level: 'silent' }));

      await waitForValue('the recorded process to die', async () => (ours.exitCode !== null || ours.signalCode !== null ? true : undefined), 5_000, 50);
      expect(isAlive(foreign.pid ?? 0)).toBe(true);
      expect(await readdir(join(dir, 'pids'))).toEqual([]);
    } finally {
      foreign.kill('SIGKILL');
      ours.kill('SIGKILL');
      await rm(dir, { recursive: true, force: true });
    }
  });
});
