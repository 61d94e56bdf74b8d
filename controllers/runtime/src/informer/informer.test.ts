// Informer behaviour against a scripted apiserver: false updates, 410 relists, backoff, watchdog, bookmarks.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { createRuntimeMetrics } from '../metrics/runtime-metrics.js';
import { KubeApiError, METADATA_LIST_ACCEPT, METADATA_WATCH_ACCEPT } from '../kube/client.js';
import { coreResources } from '../kube/resource.js';
import { kubeObjectSchema, type KubeObject } from '../kube/object.js';
import { ScriptedApiServer } from '../testing/scripted-api-server.js';
import { Informer } from './informer.js';
import type { InformerEvent } from './informer-event.js';

function configMap(name: string, resourceVersion: string): KubeObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'ns', resourceVersion } };
}

describe('Informer', () => {
  let server: ScriptedApiServer;
  let registry: Registry;
  let informer: Informer<KubeObject>;
  let events: string[];

  beforeEach(async () => {
    vi.useFakeTimers();
    server = new ScriptedApiServer();
    server.items = [configMap('a', '5'), configMap('b', '6')];
    registry = new Registry();
    informer = new Informer({
      client: server,
      resource: coreResources.configMap,
      schema: kubeObjectSchema,
      logger: pino({ level: 'silent' }),
      metrics: createRuntimeMetrics(registry),
      watchdogMs: 60_000,
    });
    events = [];
    informer.subscribe((event: InformerEvent<KubeObject>) => events.push(`${event.type} ${event.object.metadata.name}`));
    informer.start();
    await informer.waitForSync();
    await vi.advanceTimersByTimeAsync(0);
  });

  afterEach(async () => {
    await informer.stop();
    vi.useRealTimers();
  });

  it('lists, then watches from the list resourceVersion with bookmarks, whole objects unless asked otherwise', () => {
    expect(events).toEqual(['added a', 'added b']);
    expect(server.watches).toHaveLength(1);
    expect(server.lastWatch.query).toMatchObject({ resourceVersion: '10', allowWatchBookmarks: true });
    expect(server.listAccepts).toEqual([undefined]);
    expect(server.lastWatch.accept).toBeUndefined();
  });

  it("asks for metadata only when told to, and caches it as the resource's kind, changes included", async () => {
    const metadataServer = new ScriptedApiServer();
    const partial = (name: string, resourceVersion: string) => ({ apiVersion: 'meta.k8s.io/v1', kind: 'PartialObjectMetadata', metadata: { name, namespace: 'ns', resourceVersion } });
    metadataServer.items = [partial('s', '3')];
    const secrets = new Informer<KubeObject>({
      client: metadataServer,
      resource: coreResources.secret,
      schema: kubeObjectSchema,
      logger: pino({ level: 'silent' }),
      metadataOnly: true,
    });
    const seen: string[] = [];
    secrets.subscribe((event) => seen.push(`${event.type} ${event.object.metadata.name} ${event.object.metadata.resourceVersion ?? ''}`));
    secrets.start();
    await secrets.waitForSync();
    await vi.advanceTimersByTimeAsync(0);
    expect(metadataServer.listAccepts).toEqual([METADATA_LIST_ACCEPT]);
    expect(metadataServer.lastWatch.accept).toBe(METADATA_WATCH_ACCEPT);
    expect(secrets.lister.get({ namespace: 'ns', name: 's' })).toEqual({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's', namespace: 'ns', resourceVersion: '3' } });
    metadataServer.lastWatch.send('MODIFIED', partial('s', '4'));
    metadataServer.items = [partial('s', '4')];
    metadataServer.lastWatch.send('ERROR', { kind: 'Status', code: 410 });
    metadataServer.lastWatch.end(null);
    await vi.advanceTimersByTimeAsync(0);
    expect(seen).toEqual(['added s 3', 'updated s 4']);
    expect(metadataServer.listAccepts).toEqual([METADATA_LIST_ACCEPT, METADATA_LIST_ACCEPT]);
    expect(metadataServer.lastWatch.accept).toBe(METADATA_WATCH_ACCEPT);
    await secrets.stop();
  });

  it('caches objects without managedFields, and without what its transform drops', async () => {
    server.lastWatch.send('ADDED', { ...configMap('c', '12'), metadata: { name: 'c', namespace: 'ns', resourceVersion: '12', managedFields: [{ manager: 'x' }] } });
    expect(informer.lister.get({ namespace: 'ns', name: 'c' })?.metadata).toEqual({ name: 'c', namespace: 'ns', resourceVersion: '12' });
    const trimmed = new Informer<KubeObject>({
      client: server,
      resource: coreResources.configMap,
      schema: kubeObjectSchema,
      logger: pino({ level: 'silent' }),
      transform: ({ data: _data, ...kept }) => kept,
    });
    server.items = [{ ...configMap('d', '30'), data: { big: 'x'.repeat(1000) } }];
    trimmed.start();
    await vi.advanceTimersByTimeAsync(0);
    await trimmed.waitForSync();
    expect(trimmed.lister.get({ namespace: 'ns', name: 'd' })).toEqual(configMap('d', '30'));
    await trimmed.stop();
  });

  it('sends no update for an event whose resourceVersion did not change', () => {
    server.lastWatch.send('MODIFIED', configMap('a', '5'));
    expect(events).toEqual(['added a', 'added b']);
    server.lastWatch.send('MODIFIED', configMap('a', '11'));
    expect(events.at(-1)).toBe('updated a');
    expect(informer.lister.get({ namespace: 'ns', name: 'a' })?.metadata.resourceVersion).toBe('11');
  });

  it('resumes a closed watch from the last event or bookmark resourceVersion without listing again', async () => {
    server.lastWatch.send('ADDED', configMap('c', '12'));
    server.lastWatch.send('BOOKMARK', { metadata: { resourceVersion: '15' } });
    server.lastWatch.end(null);
    await vi.advanceTimersByTimeAsync(0);
    expect(server.watches).toHaveLength(2);
    expect(server.lastWatch.query).toMatchObject({ resourceVersion: '15' });
    expect(server.lists).toBe(1);
  });

  it('relists after 410 Gone and reports objects deleted meanwhile as deletions', async () => {
    server.items = [configMap('a', '5'), configMap('c', '20')];
    server.resourceVersion = '21';
    server.lastWatch.send('ERROR', { kind: 'Status', code: 410, message: 'too old resource version' });
    server.lastWatch.end(null);
    await vi.advanceTimersByTimeAsync(0);
    expect(server.lists).toBe(2);
    expect(events.slice(2)).toEqual(['added c', 'deleted b']);
    expect(server.lastWatch.query).toMatchObject({ resourceVersion: '21' });
    expect(await registry.getSingleMetricAsString('informer_watch_restarts_total')).toContain('reason="expired"} 1');
  });

  it('retries a failed watch after a backoff that grows with each failure', async () => {
    server.lastWatch.end(new Error('connection refused'));
    await vi.advanceTimersByTimeAsync(999);
    expect(server.watches).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(501);
    expect(server.watches).toHaveLength(2);
    server.lastWatch.end(new Error('connection refused'));
    await vi.advanceTimersByTimeAsync(1999);
    expect(server.watches).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1001);
    expect(server.watches).toHaveLength(3);
    expect(server.lastWatch.query).toMatchObject({ resourceVersion: '10' });
    expect(await registry.getSingleMetricAsString('informer_watch_restarts_total')).toContain('reason="error"} 2');
  });

  it('retries a refusal that says when to ask again at that time, without growing the backoff of the next failure', async () => {
    const reinitializing = (): KubeApiError => new KubeApiError(429, 'TooManyRequests', 'GET', '/api/v1/configmaps', 'storage is (re)initializing', [], 1);
    for (let attempt = 1; attempt <= 4; attempt += 1) {
      server.lastWatch.end(reinitializing());
      await vi.advanceTimersByTimeAsync(999);
      expect(server.watches).toHaveLength(attempt);
      await vi.advanceTimersByTimeAsync(1);
      expect(server.watches).toHaveLength(attempt + 1);
    }
    server.lastWatch.end(new Error('connection refused'));
    await vi.advanceTimersByTimeAsync(1500);
    expect(server.watches).toHaveLength(6);
  });

  it('backs off after ten refusals in a row that say when to ask again, as client-go gives up retrying them', async () => {
    const slowDown = (): KubeApiError => new KubeApiError(429, 'TooManyRequests', 'GET', '/api/v1/configmaps', 'slow down', [], 5);
    for (let attempt = 1; attempt <= 10; attempt += 1) {
      server.lastWatch.end(slowDown());
      await vi.advanceTimersByTimeAsync(4999);
      expect(server.watches).toHaveLength(attempt);
      await vi.advanceTimersByTimeAsync(1);
    }
    expect(server.watches).toHaveLength(11);
    server.lastWatch.end(slowDown());
    await vi.advanceTimersByTimeAsync(1500);
    expect(server.watches).toHaveLength(12);
  });

  it('asks again at most every 6 s (4 s and its jitter) for a resource that is not served, so a CRD made again is soon followed', async () => {
    const notFound = (): KubeApiError => new KubeApiError(404, 'NotFound', 'GET', '/api/v1/configmaps', 'the server could not find the requested resource');
    for (let attempt = 1; attempt <= 6; attempt += 1) {
      server.lastWatch.end(notFound());
      await vi.advanceTimersByTimeAsync(6000);
      expect(server.watches).toHaveLength(attempt + 1);
    }
  });

  it('backs off instead of reconnecting at once when the server keeps closing watches immediately', async () => {
    server.lastWatch.end(null);
    await vi.advanceTimersByTimeAsync(0);
    expect(server.watches).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1500);
    expect(server.watches).toHaveLength(2);
  });

  it('restarts a watch that stays silent longer than the watchdog period', async () => {
    await vi.advanceTimersByTimeAsync(59_000);
    server.lastWatch.send('BOOKMARK', { metadata: { resourceVersion: '12' } });
    await vi.advanceTimersByTimeAsync(59_000);
    expect(server.watches).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(server.watches[0]?.controller.signal.aborted).toBe(true);
    expect(server.watches).toHaveLength(2);
    expect(server.lastWatch.query).toMatchObject({ resourceVersion: '12' });
    expect(await registry.getSingleMetricAsString('informer_watch_restarts_total')).toContain('reason="stalled"} 1');
  });

  it('drops and counts an object that does not parse, and keeps watching', async () => {
    server.lastWatch.send('ADDED', { metadata: { namespace: 'ns', resourceVersion: '13' } });
    server.lastWatch.send('ADDED', configMap('d', '14'));
    expect(events.at(-1)).toBe('added d');
    expect(await registry.getSingleMetricAsString('informer_invalid_objects_total')).toContain('} 1');
  });

  it('drops an event whose object is no JSON object, or whose metadata is none, and keeps watching', async () => {
    server.lastWatch.send('ADDED', [configMap('x', '13')]);
    server.lastWatch.send('ADDED', { ...configMap('y', '14'), metadata: 'y' });
    server.lastWatch.send('MODIFIED', { ...configMap('a', '15'), metadata: { name: 'a', namespace: 'ns', resourceVersion: '15', managedFields: 'odd' } });
    expect(events).toEqual(['added a', 'added b', 'updated a']);
    expect(informer.lister.get({ namespace: 'ns', name: 'a' })?.metadata).toEqual({ name: 'a', namespace: 'ns', resourceVersion: '15' });
    expect(await registry.getSingleMetricAsString('informer_invalid_objects_total')).toContain('} 2');
  });

  it('lists cached objects by namespace and labels', () => {
    server.lastWatch.send('ADDED', { ...configMap('e', '16'), metadata: { name: 'e', namespace: 'other', resourceVersion: '16', labels: { app: 'zk' } } });
    expect(informer.lister.list({ namespace: 'ns' }).map((o) => o.metadata.name)).toEqual(['a', 'b']);
    expect(informer.lister.list({ labels: { app: 'zk' } }).map((o) => o.metadata.name)).toEqual(['e']);
  });
});
