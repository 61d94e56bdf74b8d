// resolveBinaries honours KUBEBUILDER_ASSETS and the single-binary TEST_ASSET_* overrides.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveBinaries } from './binaries.js';
import { BedBinariesError } from './errors.js';

const root = mkdtempSync(join(tmpdir(), 'bed-binaries-'));
const names = ['etcd', 'kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'kubectl'];

function fakeBinaries(dir: string, files: string[]): string {
  mkdirSync(dir, { recursive: true });
  for (const name of files) {
    writeFileSync(join(dir, name), '#!/bin/sh\n');
    chmodSync(join(dir, name), 0o755);
  }
  return dir;
}

describe('resolveBinaries', () => {
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('takes every binary from KUBEBUILDER_ASSETS and puts binDir where kubectl is', async () => {
    const assets = fakeBinaries(join(root, 'assets'), names);

    const binaries = await resolveBinaries({ KUBEBUILDER_ASSETS: assets });

    expect(binaries).toEqual({
      etcd: join(assets, 'etcd'),
      kubeApiserver: join(assets, 'kube-apiserver'),
      kubeControllerManager: join(assets, 'kube-controller-manager'),
      kubeScheduler: join(assets, 'kube-scheduler'),
      kubectl: join(assets, 'kubectl'),
      binDir: assets,
    });
  });

  it('lets a TEST_ASSET_* variable override one binary of KUBEBUILDER_ASSETS', async () => {
    const assets = fakeBinaries(join(root, 'assets-2'), names);
    const other = fakeBinaries(join(root, 'other'), ['my-etcd', 'kubectl']);

    const binaries = await resolveBinaries({
      KUBEBUILDER_ASSETS: assets,
      TEST_ASSET_ETCD: join(other, 'my-etcd'),
      TEST_ASSET_KUBECTL: join(other, 'kubectl'),
    });

    expect(binaries.etcd).toBe(join(other, 'my-etcd'));
    expect(binaries.kubeApiserver).toBe(join(assets, 'kube-apiserver'));
    expect(binaries.binDir).toBe(other);
  });

  it('names the variable to set when a binary is missing', async () => {
    const assets = fakeBinaries(join(root, 'incomplete'), names.filter((name) => name !== 'kube-scheduler'));

    const resolving = resolveBinaries({ KUBEBUILDER_ASSETS: assets });

    await expect(resolving).rejects.toBeInstanceOf(BedBinariesError);
    await expect(resolving).rejects.toThrow(/kube-scheduler.*TEST_ASSET_KUBE_SCHEDULER/);
  });
});
