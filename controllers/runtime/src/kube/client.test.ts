// KubeClient's connection reuse and watch streams, against a local HTTPS server standing in for the apiserver (a fake:
// no real apiserver reports the TLS connections of one client, nor splits an event across writes on demand).
import { mkdtempSync, rmSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CoreV1Api } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isNamespaceTerminating, KubeApiError, KubeClient, METADATA_LIST_ACCEPT, METADATA_WATCH_ACCEPT } from './client.js';
import { PooledKubeConfig } from './pooled-kube-config.js';
import { selfSignedLocalhost, type SelfSigned } from '../testing/self-signed.js';

/** What kube-apiserver answers a create in a namespace being deleted. */
const TERMINATING = {
  kind: 'Status',
  apiVersion: 'v1',
  status: 'Failure',
  message: 'configmaps "c" is forbidden: unable to create new content in namespace gone because it is being terminated',
  reason: 'Forbidden',
  details: { name: 'c', kind: 'configmaps', causes: [{ reason: 'NamespaceTerminating', message: 'namespace gone is being terminated', field: 'metadata.namespace' }] },
  code: 403,
};

/** What kube-apiserver answers while a resource's storage is (re)initializing, as after its CRD is created again. */
const REINITIALIZING = {
  kind: 'Status',
  apiVersion: 'v1',
  status: 'Failure',
  message: 'storage is (re)initializing',
  reason: 'TooManyRequests',
  details: { retryAfterSeconds: 1 },
  code: 429,
};

let dir: string;
let certificate: SelfSigned;
let server: Server;
let handshakes = 0;
const authorizations: (string | undefined)[] = [];
const accepts: (string | undefined)[] = [];

/** What kube-apiserver answers a watch from a resourceVersion it no longer has. */
const EXPIRED = { kind: 'Status', apiVersion: 'v1', status: 'Failure', message: 'too old resource version: 1 (20)', reason: 'Expired', code: 410 };

function partial(name: string, resourceVersion: string): string {
  return JSON.stringify({ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: { name, namespace: 'ns', resourceVersion } });
}

/** Watches by path: a stream of two events and a bookmark, the first split across writes; a 410; a line that is no event. */
function answerWatch(path: string, response: ServerResponse): void {
  if (path === '/api/v1/namespaces/gone/secrets') {
    response.statusCode = 410;
    response.end(JSON.stringify(EXPIRED));
    return;
  }
  if (path === '/api/v1/namespaces/garbled/secrets') {
    response.write('{"type":"ADDED","object":{"data":{"password":"hunter2"}}\n');
    return;
  }
  const added = `{"type":"ADDED","object":${partial('a', '11')}}\n`;
  response.write(added.slice(0, 20));
  setTimeout(() => {
    response.write(`${added.slice(20)}{"type":"MODIFIED","object":${partial('a', '12')}}\n`);
    response.end(`{"type":"BOOKMARK","object":{"kind":"PartialObjectMetadata","metadata":{"resourceVersion":"13"}}}\n`);
  }, 50);
}

function kubeConfigFor(port: number, token: string): PooledKubeConfig {
  const kubeConfig = new PooledKubeConfig();
  kubeConfig.loadFromOptions({
    clusters: [{ name: 'local', server: `https://127.0.0.1:${String(port)}`, caData: certificate.cert.toString('base64') }],
    users: [{ name: 'reader', token }],
    contexts: [{ name: 'local', cluster: 'local', user: 'reader' }],
    currentContext: 'local',
  });
  return kubeConfig;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'kube-client-'));
  certificate = selfSignedLocalhost(dir);
  server = createServer(certificate, (request, response) => {
    authorizations.push(request.headers.authorization);
    accepts.push(request.headers.accept);
    response.setHeader('Content-Type', 'application/json');
    const url = new URL(request.url ?? '/', 'https://127.0.0.1');
    if (url.searchParams.get('watch') === 'true') {
      answerWatch(url.pathname, response);
      return;
    }
    if (url.pathname === '/apis/example.com/v1/reinitializing') {
      response.statusCode = 429;
      response.end(JSON.stringify(REINITIALIZING));
      return;
    }
    if (request.method === 'POST') {
      response.statusCode = 403;
      response.end(JSON.stringify(TERMINATING));
      return;
    }
    response.end(JSON.stringify({ kind: 'Namespace', metadata: { name: 'default' } }));
  });
  server.on('secureConnection', () => (handshakes += 1));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

describe('KubeClient', () => {
  // A connection goes back to the pool a moment after its response body is read, so one request after another can
  // alternate between two; what matters is that the count stays flat as requests go on (client-node alone: one each).
  it('reuses kept-alive TLS connections across requests, authenticating each one', async () => {
    const client = new KubeClient(kubeConfigFor((server.address() as AddressInfo).port, 'token-a'));
    handshakes = 0;
    authorizations.length = 0;
    for (let i = 0; i < 40; i += 1) {
      await expect(client.request('GET', '/api/v1/namespaces/default')).resolves.toMatchObject({ metadata: { name: 'default' } });
    }
    expect(handshakes).toBeLessThanOrEqual(2);
    expect(authorizations).toEqual(Array.from({ length: 40 }, () => 'Bearer token-a'));
  });

  it('shares the pool with typed clients made from the same kubeconfig (client-node alone: a handshake each)', async () => {
    const kubeConfig = kubeConfigFor((server.address() as AddressInfo).port, 'token-typed');
    const client = new KubeClient(kubeConfig);
    const core = kubeConfig.makeApiClient(CoreV1Api);
    handshakes = 0;
    authorizations.length = 0;
    for (let i = 0; i < 20; i += 1) {
      await expect(core.readNamespace({ name: 'default' })).resolves.toMatchObject({ metadata: { name: 'default' } });
      await client.request('GET', '/api/v1/namespaces/default');
    }
    expect(handshakes).toBeLessThanOrEqual(2);
    expect(authorizations).toEqual(Array.from({ length: 40 }, () => 'Bearer token-typed'));
  });

  it('keeps the pool near the number of requests in flight at once', async () => {
    const client = new KubeClient(kubeConfigFor((server.address() as AddressInfo).port, 'token-b'));
    handshakes = 0;
    for (let round = 0; round < 10; round += 1) {
      await Promise.all(Array.from({ length: 4 }, () => client.request('GET', '/api/v1/namespaces/default')));
    }
    expect(handshakes).toBeLessThanOrEqual(8);
  });

  it('keeps the causes of a refusal, so a namespace being deleted is told apart from any other 403', async () => {
    const client = new KubeClient(kubeConfigFor((server.address() as AddressInfo).port, 'token-c'));
    const refusal: unknown = await client.request('POST', '/api/v1/namespaces/gone/configmaps', { body: {} }).catch((error: unknown) => error);
    expect(refusal).toMatchObject({ code: 403, reason: 'Forbidden', causes: ['NamespaceTerminating'] });
    expect(isNamespaceTerminating(refusal)).toBe(true);
    expect(isNamespaceTerminating(new Error('wrapped', { cause: refusal }))).toBe(true);
    expect(isNamespaceTerminating(new KubeApiError(403, 'Forbidden', 'POST', '/x', 'RBAC says no'))).toBe(false);
  });

  it('keeps how long a refusal asks to wait before asking again', async () => {
    const client = new KubeClient(kubeConfigFor((server.address() as AddressInfo).port, 'token-c'));
    const refusal: unknown = await client.request('GET', '/apis/example.com/v1/reinitializing').catch((error: unknown) => error);
    expect(refusal).toMatchObject({ code: 429, reason: 'TooManyRequests', retryAfterSeconds: 1 });
    const other: unknown = await client.request('POST', '/api/v1/namespaces/gone/configmaps', { body: {} }).catch((error: unknown) => error);
    expect(other).toMatchObject({ code: 403, retryAfterSeconds: undefined });
  });

  /** Opens a watch and resolves with its events and how it ended. */
  function watched(client: KubeClient, path: string): Promise<{ events: string[]; end: unknown }> {
    const events: string[] = [];
    return new Promise((resolve, reject) => {
      client
        .watch(path, { resourceVersion: '10' }, (type, object) => events.push(`${type} ${JSON.stringify(object)}`), (end) => resolve({ events, end }), { accept: METADATA_WATCH_ACCEPT })
        .catch(reject);
    });
  }

  it('asks for the representation it is given, and hands on each watch event whole, however the server splits it', async () => {
    const client = new KubeClient(kubeConfigFor((server.address() as AddressInfo).port, 'token-d'));
    accepts.length = 0;
    await client.request('GET', '/api/v1/secrets', { accept: METADATA_LIST_ACCEPT });
    const { events, end } = await watched(client, '/api/v1/secrets');
    expect(accepts).toEqual([METADATA_LIST_ACCEPT, METADATA_WATCH_ACCEPT]);
    expect(events).toEqual([
      `ADDED ${partial('a', '11')}`,
      `MODIFIED ${partial('a', '12')}`,
      'BOOKMARK {"kind":"PartialObjectMetadata","metadata":{"resourceVersion":"13"}}',
    ]);
    expect(end).toBeNull();
  });

  it("ends a refused watch with the apiserver's refusal, so a 410 Gone is told apart (and the informer lists again)", async () => {
    const client = new KubeClient(kubeConfigFor((server.address() as AddressInfo).port, 'token-e'));
    const { events, end } = await watched(client, '/api/v1/namespaces/gone/secrets');
    expect(events).toEqual([]);
    expect(end).toMatchObject({ code: 410, reason: 'Expired', detail: EXPIRED.message });
  });

  it('ends a watch at a line that is not a watch event, with an error that does not quote the line', async () => {
    const client = new KubeClient(kubeConfigFor((server.address() as AddressInfo).port, 'token-f'));
    const { events, end } = await watched(client, '/api/v1/namespaces/garbled/secrets');
    expect(events).toEqual([]);
    expect(end).toBeInstanceOf(Error);
    expect(String(end)).toMatch(/not a watch event/);
    expect(String(end)).not.toContain('hunter2');
  });
});
