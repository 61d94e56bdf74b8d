import type { V1Pod } from '@kubernetes/client-node';
import { mkdtemp, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { refreshDueAt, refreshTokenFile, writeProjectedVolume, type ProjectionSources, type TokenRequestSpec } from './projected-volume.js';

const pod: V1Pod = {
  metadata: { name: 'zk-oam-workload-abc', namespace: 'zk-oam-system', uid: 'uid-1', labels: { app: 'x' } },
  spec: { serviceAccountName: 'zk-oam-workload', containers: [] },
};

/** A fake of the apiserver's ConfigMaps and TokenRequest: these tests are about the files, the bed tests use the real one. */
function fakeSources(): ProjectionSources & { requests: TokenRequestSpec[] } {
  const requests: TokenRequestSpec[] = [];
  return {
    requests,
    configMap: (_namespace, name) => Promise.resolve(name === 'kube-root-ca.crt' ? { 'ca.crt': Buffer.from('CA PEM') } : undefined),
    secret: () => Promise.resolve(undefined),
    serviceAccountToken: (request) => {
      requests.push(request);
      return Promise.resolve({ token: `token-${String(requests.length)}`, expiresAt: new Date(Date.UTC(2026, 0, 1, 1)) });
    },
  };
}

/** What the ServiceAccount admission plugin injects into every pod. */
const kubeApiAccess = {
  defaultMode: 0o644,
  sources: [
    { serviceAccountToken: { path: 'token', expirationSeconds: 3607 } },
    { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
    { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
  ],
};

describe('projected volumes', () => {
  it('writes the kube-api-access volume: a token bound to the pod for its ServiceAccount, the CA and the namespace', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'projected-'));
    const sources = fakeSources();
    const tokens = await writeProjectedVolume(pod, kubeApiAccess, dir, sources);
    expect(await readFile(join(dir, 'token'), 'utf8')).toBe('token-1');
    expect(await readFile(join(dir, 'ca.crt'), 'utf8')).toBe('CA PEM');
    expect(await readFile(join(dir, 'namespace'), 'utf8')).toBe('zk-oam-system');
    expect((await stat(join(dir, 'token'))).mode & 0o777).toBe(0o644);
    expect(sources.requests).toEqual([
      { namespace: 'zk-oam-system', serviceAccount: 'zk-oam-workload', pod: { name: 'zk-oam-workload-abc', uid: 'uid-1' }, audience: undefined, expirationSeconds: 3607 },
    ]);
    expect(tokens.map((token) => token.file)).toEqual([join(dir, 'token')]);
  });

  it('renews a token at 80% of its lifetime, replacing the file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'projected-'));
    const sources = fakeSources();
    const [token] = await writeProjectedVolume(pod, kubeApiAccess, dir, sources);
    if (token === undefined) throw new Error('no token file');
    const issuedAt = token.issued.expiresAt.getTime() - 3607_000;
    expect(refreshDueAt(token, new Date(issuedAt)).getTime()).toBe(issuedAt + 0.8 * 3607_000);
    await refreshTokenFile(token, sources);
    expect(await readFile(join(dir, 'token'), 'utf8')).toBe('token-2');
  });

  it('refuses a missing ConfigMap, an unsupported downward field and a path that leaves the volume', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'projected-'));
    await expect(writeProjectedVolume(pod, { sources: [{ configMap: { name: 'absent' } }] }, dir, fakeSources())).rejects.toThrow(/ConfigMap absent not found/);
    await expect(
      writeProjectedVolume(pod, { sources: [{ downwardAPI: { items: [{ path: 'ip', fieldRef: { fieldPath: 'status.podIP' } }] } }] }, dir, fakeSources()),
    ).rejects.toThrow(/only metadata fields/);
    await expect(
      writeProjectedVolume(pod, { sources: [{ serviceAccountToken: { path: '../escape' } }] }, dir, fakeSources()),
    ).rejects.toThrow(/leaves the volume/);
  });
});
