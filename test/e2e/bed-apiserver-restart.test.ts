// restartApiServer() brings kube-apiserver back on the same address with its state: objects written
// before are still there and writes succeed afterwards. Runs on a private control plane.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CoreV1Api } from '@kubernetes/client-node';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveBinaries, startControlPlane, type ControlPlane } from '../src/bed/index.js';
import { PooledKubeConfig } from '@zk-oam/runtime';

const dir = mkdtempSync(join(tmpdir(), 'zkoam-restart-'));
let controlPlane: ControlPlane | undefined;

describe('kube-apiserver restart', () => {
  afterAll(async () => {
    await controlPlane?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps objects written before the restart and accepts writes after it, on the same port', async () => {
    controlPlane = await startControlPlane({
      dir,
      log: pino({ level: 'warn' }),
      controllers: false,
      binaries: await resolveBinaries(process.env),
    });
    const kubeconfig = new PooledKubeConfig();
    kubeconfig.loadFromFile(controlPlane.kubeconfig);
    const core = kubeconfig.makeApiClient(CoreV1Api);
    await core.createNamespacedConfigMap({
      namespace: 'default',
      body: { metadata: { name: 'before' }, data: { at: 'before' } },
    });
    const pidBefore = controlPlane.pids()['kube-apiserver'];

    await controlPlane.restartApiServer();

    expect(controlPlane.pids()['kube-apiserver']).not.toBe(pidBefore);
    const before = await core.readNamespacedConfigMap({ namespace: 'default', name: 'before' });
    expect(before.data).toEqual({ at: 'before' });
    await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'after' } } });
    const names = (await core.listNamespacedConfigMap({ namespace: 'default' })).items.map((c) => c.metadata?.name);
    expect(names).toEqual(expect.arrayContaining(['before', 'after']));
  });
});
