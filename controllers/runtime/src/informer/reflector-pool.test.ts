// Informers sharing a reflector against a scripted apiserver: one list and one watch for all, each its own cache.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { pino } from 'pino';
import { KubeApiError, METADATA_LIST_ACCEPT } from '../kube/client.js';
import { coreResources } from '../kube/resource.js';
import { kubeObjectSchema, type KubeObject } from '../kube/object.js';
import { ScriptedApiServer } from '../testing/scripted-api-server.js';
import { Informer, type InformerOptions } from './informer.js';
import { keepFields } from './kept-fields.js';
import { ReflectorPool } from './reflector-pool.js';

function pod(name: string, resourceVersion: string): KubeObject & { spec: unknown } {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'ns', resourceVersion }, spec: { nodeName: 'n1' } };
}

const metadataOnly = keepFields({});

describe('ReflectorPool', () => {
  let server: ScriptedApiServer;
  let pool: ReflectorPool;
  const started: Informer<KubeObject>[] = [];

  function informer(options: Partial<InformerOptions<KubeObject>> = {}): { informer: Informer<KubeObject>; events: string[] } {
    const created = new Informer<KubeObject>({
      client: server,
      resource: coreResources.pod,
      schema: kubeObjectSchema,
      logger: pino({ level: 'silent' }),
      reflectors: pool,
      labelSelector: 'app=zk',
      ...options,
    });
    const events: string[] = [];
    created.subscribe((event) => events.push(`${event.type} ${event.object.metadata.name} ${event.object.metadata.resourceVersion ?? ''}`));
    created.start();
    started.push(created);
    return { informer: created, events };
  }

  beforeEach(() => {
    vi.useFakeTimers();
    server = new ScriptedApiServer();
    server.items = [pod('a', '5')];
    pool = new ReflectorPool();
  });

  afterEach(async () => {
    await Promise.all(started.splice(0).map((each) => each.stop()));
    vi.useRealTimers();
  });

  it('lists and watches once for informers of the same list and watch, each caching through its own transform', async () => {
    const whole = informer();
    const trimmed = informer({ transform: metadataOnly });
    await vi.advanceTimersByTimeAsync(0);
    await Promise.all([whole.informer.waitForSync(), trimmed.informer.waitForSync()]);
    expect(server.lists).toBe(1);
    expect(server.watches).toHaveLength(1);

    server.lastWatch.send('MODIFIED', pod('a', '11'));
    expect(whole.events).toEqual(['added a 5', 'updated a 11']);
    expect(trimmed.events).toEqual(['added a 5', 'updated a 11']);
    expect(whole.informer.lister.get({ namespace: 'ns', name: 'a' })).toMatchObject({ spec: { nodeName: 'n1' } });
    expect(trimmed.informer.lister.get({ namespace: 'ns', name: 'a' })).not.toHaveProperty('spec');
  });

  it('parses an object once for informers that parse alike, and apart for one with its own transform or schema', async () => {
    const parses = vi.spyOn(kubeObjectSchema, 'safeParse');
    const own = kubeObjectSchema.extend({});
    const owns = vi.spyOn(own, 'safeParse');
    const alike = [informer(), informer(), informer()];
    const trimmed = informer({ transform: metadataOnly });
    const ownSchema = informer({ schema: own });
    await vi.advanceTimersByTimeAsync(0);
    await Promise.all([...alike, trimmed, ownSchema].map((each) => each.informer.waitForSync()));
    parses.mockClear();
    owns.mockClear();

    server.lastWatch.send('MODIFIED', pod('a', '11'));
    expect(parses).toHaveBeenCalledTimes(2);
    expect(owns).toHaveBeenCalledTimes(1);
    const cached = alike.map((each) => each.informer.lister.get({ namespace: 'ns', name: 'a' }));
    expect(cached[0]).toMatchObject({ metadata: { resourceVersion: '11' }, spec: { nodeName: 'n1' } });
    expect(new Set(cached).size).toBe(1);
    expect(alike.map((each) => each.events)).toEqual(Array.from({ length: 3 }, () => ['added a 5', 'updated a 11']));
    expect(trimmed.informer.lister.get({ namespace: 'ns', name: 'a' })).not.toHaveProperty('spec');
  });

  it('watches apart what differs in selector or namespace', async () => {
    informer();
    informer({ labelSelector: 'app=other' });
    informer({ namespace: 'ns' });
    await vi.advanceTimersByTimeAsync(0);
    expect(server.watches.map((watch) => [watch.path, watch.query['labelSelector']])).toEqual([
      ['/api/v1/pods', 'app=zk'],
      ['/api/v1/pods', 'app=other'],
      ['/api/v1/namespaces/ns/pods', 'app=zk'],
    ]);
  });

  it('lists again for an informer that comes after the first list, and tells the ones there only what changed', async () => {
    const first = informer();
    await vi.advanceTimersByTimeAsync(0);
    await first.informer.waitForSync();
    server.items = [pod('a', '5'), pod('b', '12')];
    server.resourceVersion = '12';

    const second = informer();
    await vi.advanceTimersByTimeAsync(0);
    await second.informer.waitForSync();
    expect(server.lists).toBe(2);
    expect(second.events).toEqual(['added a 5', 'added b 12']);
    expect(first.events).toEqual(['added a 5', 'added b 12']);
    expect(server.watches).toHaveLength(2);
    expect(server.watches[0]?.controller.signal.aborted).toBe(true);
    expect(server.lastWatch.query).toMatchObject({ resourceVersion: '12' });
  });

  it('turns a watch of metadata alone into one of whole objects when a sharer needs them', async () => {
    const metadata = informer({ metadataOnly: true, transform: metadataOnly });
    await vi.advanceTimersByTimeAsync(0);
    await metadata.informer.waitForSync();
    expect(server.listAccepts).toEqual([METADATA_LIST_ACCEPT]);

    const whole = informer();
    await vi.advanceTimersByTimeAsync(0);
    await whole.informer.waitForSync();
    expect(server.listAccepts).toEqual([METADATA_LIST_ACCEPT, undefined]);
    expect(server.lastWatch.accept).toBeUndefined();
    expect(whole.informer.lister.get({ namespace: 'ns', name: 'a' })).toMatchObject({ spec: { nodeName: 'n1' } });
    expect(metadata.informer.lister.get({ namespace: 'ns', name: 'a' })).toEqual({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'a', namespace: 'ns', resourceVersion: '5' } });
    expect(metadata.events).toEqual(['added a 5']);
  });

  it('asks as its first sharer, as the next one once the first has stopped, and stops with the last', async () => {
    const other = new ScriptedApiServer();
    other.items = server.items;
    const first = informer();
    const second = informer({ client: other });
    await vi.advanceTimersByTimeAsync(0);
    expect([server.lists, other.lists]).toEqual([1, 0]);

    await first.informer.stop();
    server.lastWatch.send('ERROR', { kind: 'Status', code: 410 });
    server.lastWatch.end(null);
    await vi.advanceTimersByTimeAsync(0);
    expect([server.lists, other.lists]).toEqual([1, 1]);
    expect(other.watches).toHaveLength(1);

    other.lastWatch.send('ADDED', pod('c', '13'));
    expect(second.events).toEqual(['added a 5', 'added c 13']);
    expect(first.events).toEqual(['added a 5']);

    await second.informer.stop();
    expect(other.lastWatch.controller.signal.aborted).toBe(true);
  });

  it('asks as the next sharer once the one it asked as is refused, so every sharer is fed', async () => {
    const refusing = new ScriptedApiServer();
    refusing.request = () => Promise.reject(new KubeApiError(403, 'Forbidden', 'GET', '/api/v1/pods', 'pods is forbidden'));
    const refused = informer({ client: refusing });
    const allowed = informer();
    await vi.advanceTimersByTimeAsync(2_000);
    await Promise.all([refused.informer.waitForSync(), allowed.informer.waitForSync()]);
    expect([refusing.watches.length, server.lists, server.watches.length]).toEqual([0, 1, 1]);
    expect(refused.events).toEqual(['added a 5']);
  });

  it('runs on for an informer that comes while the last one is leaving', async () => {
    const leaving = informer();
    await vi.advanceTimersByTimeAsync(0);
    await leaving.informer.waitForSync();
    const left = leaving.informer.stop();
    const coming = informer();
    await left;
    await vi.advanceTimersByTimeAsync(0);
    await coming.informer.waitForSync();
    server.lastWatch.send('ADDED', pod('c', '13'));
    expect(coming.events).toEqual(['added a 5', 'added c 13']);
  });
});
