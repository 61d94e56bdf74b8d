// Stopping a bed leaves no process behind: a second, private bed is started and stopped here, and every
// process it ran (control plane, NATS, node agent) must be gone afterwards.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { isAlive, processesMentioning, resolveBinaries, startBed, type Bed } from '../src/bed/index.js';

const dir = mkdtempSync(join(tmpdir(), 'zkoam-teardown-'));
let bed: Bed | undefined;

describe('bed teardown', () => {
  afterAll(async () => {
    // Only reached with a running bed when the test failed before stopping it.
    await bed?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('leaves no process running once the bed is stopped', async () => {
    const binaries = await resolveBinaries(process.env);
    bed = await startBed({ dir, log: pino({ level: 'warn' }), binaries, nodeCount: 1 });
    const started = processesMentioning(dir);
    const names = started.map((p) => p.cmdline);
    const expectedProcesses = ['etcd', 'kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'nats-server', 'agent/main.ts'];
    for (const expected of expectedProcesses) {
      expect(names.some((cmdline) => cmdline.includes(expected)), `${expected} should be running`).toBe(true);
    }

    const stopping = bed;
    bed = undefined;
    await stopping.stop();

    expect(started.filter((p) => isAlive(p.pid))).toEqual([]);
    expect(processesMentioning(dir)).toEqual([]);
  });
});
