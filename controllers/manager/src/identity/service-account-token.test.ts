import { mkdtemp, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger, KubeApiError } from '@zk-oam/runtime';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ServiceAccountTokenFile, TOKEN_LIFETIME_SECONDS } from './service-account-token.js';

const log = createLogger({ name: 'test', level: 'silent' });
const account = { namespace: 'zk-oam-system', name: 'zk-oam-scale' };

/** A TokenRequest endpoint that issues token-1, token-2, ... each for an hour, and records what it was asked. */
function tokenEndpoint(): { request: (verb: string, path: string, options?: { body?: unknown }) => Promise<unknown>; asked: unknown[] } {
  const asked: unknown[] = [];
  return {
    asked,
    request: (verb, path, options) => {
      asked.push({ verb, path, body: options?.body });
      const expirationTimestamp = new Date(Date.now() + TOKEN_LIFETIME_SECONDS * 1000).toISOString();
      return Promise.resolve({ status: { token: `token-${String(asked.length)}`, expirationTimestamp } });
    },
  };
}

describe('ServiceAccountTokenFile', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('writes the token to a file only its process reads, and asks for the next at 80% of its lifetime', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const file = join(await mkdtemp(join(tmpdir(), 'tokens-')), 'tokens', 'scale');
    const endpoint = tokenEndpoint();
    const stop = new AbortController();
    const token = new ServiceAccountTokenFile({ client: endpoint, account, file, log, signal: stop.signal });
    await token.ready();
    expect(endpoint.asked).toEqual([
      {
        verb: 'POST',
        path: '/api/v1/namespaces/zk-oam-system/serviceaccounts/zk-oam-scale/token',
        body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: 3600 } },
      },
    ]);
    expect(await readFile(file, 'utf8')).toBe('token-1');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    // A start again (the controller's manager made afresh) within the lifetime reuses the token in the file.
    await token.ready();
    await vi.advanceTimersByTimeAsync(0.8 * TOKEN_LIFETIME_SECONDS * 1000 - 1_000);
    expect(endpoint.asked).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(endpoint.asked).toHaveLength(2);
    await vi.waitFor(async () => expect(await readFile(file, 'utf8')).toBe('token-2'));
    stop.abort();
  });

  it('throws when the first token is refused, and writes no file', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'tokens-')), 'scale');
    const refusal = new KubeApiError(403, 'Forbidden', 'POST', '/api/v1/namespaces/zk-oam-system/serviceaccounts/zk-oam-scale/token', 'forbidden');
    const client = { request: () => Promise.reject(refusal) };
    const token = new ServiceAccountTokenFile({ client, account, file, log, signal: new AbortController().signal });
    await expect(token.ready()).rejects.toBe(refusal);
    await expect(stat(file)).rejects.toThrow('ENOENT');
  });
});
