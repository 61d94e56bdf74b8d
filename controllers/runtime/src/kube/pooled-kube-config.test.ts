// PooledKubeConfig's protocol and authentication, against a local HTTPS server that offers HTTP/2 and HTTP/1.1 as
// kube-apiserver does (a fake: no real apiserver reports the protocol and credentials of each request it serves).
import { mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { createSecureServer, type Http2SecureServer } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { KubeClient } from './client.js';
import { AUTHENTICATION_TTL_MS, PooledKubeConfig } from './pooled-kube-config.js';
import { selfSignedLocalhost, type SelfSigned } from '../testing/self-signed.js';

let dir: string;
let certificate: SelfSigned;
let server: Http2SecureServer;
const seen: { version: string; authorization: string | undefined }[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pooled-kube-config-'));
  certificate = selfSignedLocalhost(dir);
  server = createSecureServer({ ...certificate, allowHTTP1: true }, (request, response) => {
    seen.push({ version: request.httpVersion, authorization: request.headers.authorization });
    response.setHeader('Content-Type', 'application/json');
    response.end(JSON.stringify({ kind: 'Namespace', metadata: { name: 'default' } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});

afterEach(() => {
  seen.length = 0;
  vi.useRealTimers();
  vi.restoreAllMocks();
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

function kubeConfigWithTokenFile(tokenFile: string): PooledKubeConfig {
  const kubeConfig = new PooledKubeConfig();
  kubeConfig.loadFromClusterAndUser(
    { name: 'local', server: `https://127.0.0.1:${String((server.address() as AddressInfo).port)}`, caData: certificate.cert.toString('base64'), skipTLSVerify: false },
    { name: 'reader', authProvider: { name: 'tokenFile', config: { tokenFile } } },
  );
  return kubeConfig;
}

function tokenFile(name: string, token: string): string {
  const file = join(dir, name);
  writeFileSync(file, token);
  return file;
}

describe('PooledKubeConfig', () => {
  it('speaks HTTP/2 to a server that offers it, from KubeClient and typed clients alike', async () => {
    const kubeConfig = kubeConfigWithTokenFile(tokenFile('protocol', 'token-p'));
    await new KubeClient(kubeConfig).request('GET', '/api/v1/namespaces/default');
    await kubeConfig.makeApiClient(CoreV1Api).readNamespace({ name: 'default' });
    expect(seen).toEqual([
      { version: '2.0', authorization: 'Bearer token-p' },
      { version: '2.0', authorization: 'Bearer token-p' },
    ]);
  });

  it('authenticates once for the requests of AUTHENTICATION_TTL_MS, then again', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const authentications = vi.spyOn(KubeConfig.prototype, 'applySecurityAuthentication');
    const client = new KubeClient(kubeConfigWithTokenFile(tokenFile('ttl', 'token-t')));
    await Promise.all(Array.from({ length: 10 }, () => client.request('GET', '/api/v1/namespaces/default')));
    for (let i = 0; i < 10; i += 1) await client.request('GET', '/api/v1/namespaces/default');
    expect(authentications).toHaveBeenCalledTimes(1);
    vi.setSystemTime(Date.now() + AUTHENTICATION_TTL_MS + 1);
    await client.request('GET', '/api/v1/namespaces/default');
    expect(authentications).toHaveBeenCalledTimes(2);
    expect(seen).toHaveLength(21);
    expect(seen.every((request) => request.authorization === 'Bearer token-t')).toBe(true);
  });

  it('sends a renewed token once client-node reads its file again (every minute)', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const file = tokenFile('renewed', 'token-old');
    const client = new KubeClient(kubeConfigWithTokenFile(file));
    await client.request('GET', '/api/v1/namespaces/default');
    writeFileSync(file, 'token-new');
    vi.setSystemTime(Date.now() + 61_000);
    await client.request('GET', '/api/v1/namespaces/default');
    expect(seen.map((request) => request.authorization)).toEqual(['Bearer token-old', 'Bearer token-new']);
  });

  it('asks again after an authentication that failed, instead of keeping the failure', async () => {
    const file = join(dir, 'not-yet');
    const client = new KubeClient(kubeConfigWithTokenFile(file));
    await expect(client.request('GET', '/api/v1/namespaces/default')).rejects.toThrow(/ENOENT/);
    writeFileSync(file, 'token-late');
    await client.request('GET', '/api/v1/namespaces/default');
    unlinkSync(file);
    expect(seen).toEqual([{ version: '2.0', authorization: 'Bearer token-late' }]);
  });
});
