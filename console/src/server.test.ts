// The console's HTTP server on a real socket, in front of an API server that is not there: what it decides before
// (or instead of) calling the API server.
import { once } from 'node:events';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger, PooledKubeConfig } from '@zk-oam/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClusterDirectory } from './clusters.js';
import { MAX_BODY_BYTES } from './http/body.js';
import { loadStaticFiles } from './http/static-files.js';
import { createConsoleServer } from './server.js';

let server: Server;
let base = '';

async function freePortNobodyListensOn(): Promise<number> {
  const probe = createServer();
  probe.listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as AddressInfo;
  probe.close();
  await once(probe, 'close');
  return port;
}

async function call(
  method: string,
  path: string,
  options: { token?: string; body?: string; headers?: Record<string, string> } = {},
): Promise<{ code: number; body: unknown; headers: Headers }> {
  const headers: Record<string, string> = { ...options.headers, ...(options.token === undefined ? {} : { Authorization: `Bearer ${options.token}` }) };
  const response = await fetch(`${base}${path}`, { method, headers, ...(options.body === undefined ? {} : { body: options.body }) });
  return { code: response.status, body: (await response.json()) as unknown, headers: response.headers };
}

beforeAll(async () => {
  const kubeConfig = new PooledKubeConfig();
  kubeConfig.loadFromOptions({
    clusters: [{ name: 'gone', server: `https://127.0.0.1:${String(await freePortNobodyListensOn())}`, skipTLSVerify: false }],
    users: [{ name: 'none' }],
    contexts: [{ name: 'east', cluster: 'gone', user: 'none', namespace: 'team-a' }],
    currentContext: 'east',
  });
  const pageDir = await mkdtemp(join(tmpdir(), 'console-page-'));
  await writeFile(join(pageDir, 'index.html'), '<!doctype html><title>zk</title>');
  await writeFile(join(pageDir, 'app.js'), 'export {};');
  await writeFile(join(pageDir, 'notes.txt'), 'not a page file');
  server = createConsoleServer({
    directory: new ClusterDirectory(kubeConfig),
    log: createLogger({ name: 'console', level: 'silent' }),
    shutdown: new AbortController().signal,
    page: await loadStaticFiles(pageDir),
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
});

afterAll(() => {
  server.closeAllConnections();
  server.close();
});

describe('the console server', () => {
  it('answers /healthz and the OpenAPI document without a token, and every /api/v1 route only with one', async () => {
    expect((await call('GET', '/healthz')).code).toBe(200);
    expect((await call('GET', '/api/v1/openapi.json')).body).toMatchObject({ openapi: '3.0.3' });
    const refused = await call('GET', '/api/v1/clusters');
    expect(refused.code).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe('Bearer');
    expect(await call('GET', '/api/v1/clusters', { token: 't' })).toMatchObject({ code: 200, body: { clusters: [{ name: 'east', namespace: 'team-a' }] } });
  });

  it('says 404 for an unknown path or cluster and 405 for a known path with another method', async () => {
    expect((await call('GET', '/api/v1/nothing', { token: 't' })).code).toBe(404);
    expect((await call('GET', '/elsewhere', { token: 't' })).code).toBe(404);
    expect((await call('GET', '/api/v1/clusters/north/zookeepers', { token: 't' })).body).toMatchObject({ error: { code: 404, message: expect.stringContaining('north') } });
    expect((await call('PUT', '/api/v1/clusters', { token: 't' })).code).toBe(405);
  });

  it('refuses a body that is not JSON or too large with 400 and 413, before calling the API server', async () => {
    const scale = '/api/v1/clusters/east/namespaces/team-a/zookeepers/zk/scale';
    expect(await call('POST', scale, { token: 't', body: '{replicas: 5' })).toMatchObject({ code: 400, body: { error: { message: expect.stringContaining('not JSON') } } });
    expect((await call('POST', scale, { token: 't', body: ' '.repeat(MAX_BODY_BYTES + 1) })).code).toBe(413);
    expect(await call('POST', scale, { token: 't', body: '{"replicas": 0}' })).toMatchObject({ code: 400, body: { error: { fields: [{ path: 'replicas' }] } } });
  });

  it('says 502 when the API server cannot be reached', async () => {
    expect(await call('GET', '/api/v1/clusters/east/zookeepers', { token: 't' })).toMatchObject({ code: 502, body: { error: { reason: 'BadGateway' } } });
  });

  it('serves the page\'s files with a policy that allows only its own origin, and no other file', async () => {
    const page = await fetch(`${base}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(await page.text()).toContain('<title>zk</title>');
    expect((await fetch(`${base}/app.js`)).headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect((await fetch(`${base}/notes.txt`)).status).toBe(404);
    expect((await fetch(`${base}/app.js`, { method: 'POST' })).status).toBe(404);
  });

  it('takes the session cookie as the token, and refuses a change made with it alone without the page\'s header', async () => {
    const scale = '/api/v1/clusters/east/namespaces/team-a/zookeepers/zk/scale';
    const cookie = { cookie: 'zkoam_token=t' };
    expect(await call('POST', scale, { body: '{"replicas": 0}', headers: cookie })).toMatchObject({ code: 403, body: { error: { reason: 'MissingPageHeader' } } });
    expect((await call('POST', scale, { body: '{"replicas": 0}', headers: { ...cookie, 'x-zk-oam-console': '1' } })).code).toBe(400);
    expect((await call('GET', '/api/v1/clusters', { headers: cookie })).code).toBe(200);
  });

  it('signs in without a token in the header, but not with an empty one', async () => {
    expect(await call('POST', '/api/v1/session', { body: '{"token": ""}' })).toMatchObject({ code: 400, body: { error: { fields: [{ path: 'token' }] } } });
    expect((await call('DELETE', '/api/v1/session')).code).toBe(401);
  });
});
