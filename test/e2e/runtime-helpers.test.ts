// The kit's write helpers and manager against the shared bed's apiserver: server-side apply, status
// updates with conflict retry, aggregated Kubernetes Events, and the manager's probes and metrics; a controller's hold on
// a namespace being deleted, lifted when the namespace is made again.
import { setTimeout as sleep } from 'node:timers/promises';
import { CoreV1Api, EventsV1Api } from '@kubernetes/client-node';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../src/wait-for.js';
import { EventRecorder, Informer, KubeApiError, KubeClient, Manager, applyObject, applyStatus, buildController, collectionPath, objectPath, controller, coreResources, done, isNamespaceTerminating, kubeObjectSchema, retryOnConflict, type ResourceType, PooledKubeConfig } from '@zk-oam/runtime';
import { workerBed } from '../src/worker-bed.js';
import { createSchemalessCrd, crdPath } from '../src/schemaless-crd.js';

const namespace = `runtime-helpers-${Date.now().toString(36)}`;
const log = pino({ level: 'warn' });
// A group per run, so a CRD still being deleted by an earlier run never collides.
const widgets: ResourceType = { group: `r${Date.now().toString(36)}.runtime.test.zkoam.dev`, version: 'v1', plural: 'widgets', kind: 'Widget', namespaced: true };
const widgetSchema = kubeObjectSchema.extend({ status: z.object({ count: z.number().optional() }).loose().optional() });

let kubeConfig: PooledKubeConfig;
let client: KubeClient;
let core: CoreV1Api;

async function until(what: string, timeoutMs: number, condition: () => Promise<boolean>): Promise<void> {
  await waitFor(what, condition, Boolean, timeoutMs, 200);
}

describe('runtime helpers on a real apiserver', () => {
  beforeAll(async () => {
    kubeConfig = new PooledKubeConfig();
    kubeConfig.loadFromFile(workerBed().kubeconfig);
    client = new KubeClient(kubeConfig);
    core = kubeConfig.makeApiClient(CoreV1Api);
    await core.createNamespace({ body: { metadata: { name: namespace } } });
    await createSchemalessCrd(client, widgets, namespace, { statusSubresource: true });
  });

  afterAll(async () => {
    await client.request('DELETE', crdPath(widgets)).catch(() => undefined);
    await core.deleteNamespace({ name: namespace }).catch(() => undefined);
  });

  it('answers a path no API serves yet (a CRD not established) with a KubeApiError, not a JSON parse error', async () => {
    const unserved: ResourceType = { ...widgets, group: `unserved.${widgets.group}` };
    const request = client.request('GET', collectionPath(unserved, namespace));
    await expect(request).rejects.toBeInstanceOf(KubeApiError);
    await expect(request).rejects.toMatchObject({ code: 404 });
  });

  it('tells a write refused because its namespace is being deleted from any other refusal', async () => {
    const doomed = `${namespace}-doomed`;
    await core.createNamespace({ body: { metadata: { name: doomed } } });
    // A finalizer nobody removes keeps the namespace Terminating while the write is tried.
    const held = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'held', namespace: doomed, finalizers: ['zkoam.dev/test-hold'] } };
    await client.request('POST', collectionPath(coreResources.configMap, doomed), { body: held });
    await core.deleteNamespace({ name: doomed });
    const refusal: unknown = await client
      .request('POST', collectionPath(coreResources.configMap, doomed), { body: { ...held, metadata: { name: 'late', namespace: doomed } } })
      .catch((error: unknown) => error);
    expect(refusal).toMatchObject({ code: 403, causes: ['NamespaceTerminating'] });
    expect(isNamespaceTerminating(refusal)).toBe(true);
    await client.request('PATCH', objectPath(coreResources.configMap, { namespace: doomed, name: 'held' }), {
      body: { metadata: { finalizers: null } },
      contentType: 'application/merge-patch+json',
    });
  });

  it('reconciles an object of a namespace deleted and made again at once, not after the hold the deleted one earned', async () => {
    const reused = `${namespace}-reused`;
    await core.createNamespace({ body: { metadata: { name: reused } } });
    // Time stops at the first refusal, so the hold it starts would last the whole test: only the new namespace lifts it.
    let stoppedAt: number | undefined;
    const stoppingClock = {
      now: () => stoppedAt ?? Date.now(),
      setTimeout: (callback: () => void, ms: number) => setTimeout(callback, ms),
      clearTimeout: (handle: ReturnType<typeof setTimeout>) => clearTimeout(handle),
      sleep: (ms: number) => sleep(ms),
    };
    const configMaps = new Informer({ client, resource: coreResources.configMap, schema: kubeObjectSchema, namespace: reused, logger: log });
    const refused: string[] = [];
    // Each `source-*` ConfigMap gets a copy: a write into the namespace on every reconcile.
    const copier = buildController(
      controller('copier')
        .for(configMaps)
        .reconcile(async ({ namespace: ns, name }) => {
          if (!name.startsWith('source-')) return done;
          const copy = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `copy-of-${name}`, namespace: ns } };
          await client.request('POST', collectionPath(coreResources.configMap, ns ?? reused), { body: copy }).catch((error: unknown) => {
            if (error instanceof KubeApiError && error.code === 409) return;
            if (isNamespaceTerminating(error)) {
              stoppedAt ??= Date.now();
              refused.push(name);
            }
            throw error;
          });
          return done;
        }),
      { logger: log, clock: stoppingClock },
    );
    configMaps.start();
    copier.start();
    const copied = (name: string): Promise<boolean> => core.readNamespacedConfigMap({ namespace: reused, name: `copy-of-${name}` }).then(() => true, () => false);
    try {
      // Its finalizer keeps the namespace Terminating until the refusal was seen.
      await core.createNamespacedConfigMap({ namespace: reused, body: { metadata: { name: 'source-old', finalizers: ['zkoam.dev/test-hold'] } } });
      await until('the first copy', 30_000, () => copied('source-old'));
      await core.deleteNamespace({ name: reused });
      await until('a copy refused as the namespace is deleted', 60_000, () => Promise.resolve(refused.length > 0));
      await client.request('PATCH', objectPath(coreResources.configMap, { namespace: reused, name: 'source-old' }), {
        body: { metadata: { finalizers: null } },
        contentType: 'application/merge-patch+json',
      });
      await until('the namespace to be deleted', 120_000, () => core.readNamespace({ name: reused }).then(() => false, () => true));
      // A creationTimestamp has whole seconds: only an object of a later second shows that it came after the refusal.
      await sleep(Math.max(0, (stoppedAt ?? 0) + 1_000 - Date.now()));
      await core.createNamespace({ body: { metadata: { name: reused } } });
      await core.createNamespacedConfigMap({ namespace: reused, body: { metadata: { name: 'source-new' } } });
      await until('the copy in the namespace made again', 30_000, () => copied('source-new'));
      expect(new Set(refused)).toEqual(new Set(['source-old']));
    } finally {
      await copier.stop();
      await configMaps.stop();
      await core.deleteNamespace({ name: reused }).catch(() => undefined);
    }
  });

  it('applies an object as its field manager and drops fields it no longer applies', async () => {
    const options = { fieldManager: 'helpers-test' };
    await applyObject(client, coreResources.configMap, { metadata: { name: 'applied', namespace }, data: { a: '1', b: '2' } }, options);
    await applyObject(client, coreResources.configMap, { metadata: { name: 'applied', namespace }, data: { a: '1' } }, options);
    const stored = await core.readNamespacedConfigMap({ namespace, name: 'applied' });
    expect(stored.data).toEqual({ a: '1' });
    expect(stored.metadata?.managedFields?.map((f) => [f.manager, f.operation])).toEqual([['helpers-test', 'Apply']]);
  });

  it('fails on a field owned by another manager unless forced, and takes it over when forced', async () => {
    const body = { metadata: { name: 'contested', namespace }, data: { owner: 'first' } };
    await applyObject(client, coreResources.configMap, body, { fieldManager: 'first' });
    const second = { metadata: { name: 'contested', namespace }, data: { owner: 'second' } };
    const refused = await applyObject(client, coreResources.configMap, second, { fieldManager: 'second', force: false }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(KubeApiError);
    expect(refused instanceof KubeApiError ? refused.code : 0).toBe(409);
    await applyObject(client, coreResources.configMap, second, { fieldManager: 'second' });
    expect((await core.readNamespacedConfigMap({ namespace, name: 'contested' })).data).toEqual({ owner: 'second' });
  });

  it('keeps all of three concurrent status updates by retrying the ones that conflict', async () => {
    await client.request('POST', collectionPath(widgets, namespace), {
      body: { apiVersion: `${widgets.group}/v1`, kind: 'Widget', metadata: { name: 'counted' }, spec: { size: 1 } },
    });
    const key = { namespace, name: 'counted' };
    // Each a read, then an apply under the resourceVersion read: the ones that lost the race are refused and read again.
    const increment = (): Promise<unknown> =>
      retryOnConflict(async () => {
        const current = widgetSchema.parse(await client.request('GET', objectPath(widgets, key)));
        const count = (current.status?.count ?? 0) + 1;
        return applyStatus(client, widgets, key, { count }, { fieldManager: 'helpers-counter', resourceVersion: current.metadata.resourceVersion });
      });
    await Promise.all([increment(), increment(), increment()]);
    const stored = widgetSchema.parse(await client.request('GET', objectPath(widgets, key)));
    expect(stored.status?.count).toBe(3);

    await applyStatus(client, widgets, key, { phase: 'Ready' }, { fieldManager: 'helpers-test' });
    const applied = await client.request('GET', objectPath(widgets, key));
    expect(applied).toMatchObject({ spec: { size: 1 }, status: { count: 3, phase: 'Ready' } });
  });

  it('refuses a status apply made under a resourceVersion the object has since moved past, and takes it under the current one', async () => {
    const key = { namespace, name: 'counted' };
    const read = kubeObjectSchema.parse(await client.request('GET', objectPath(widgets, key)));
    await applyStatus(client, widgets, key, { phase: 'Moved' }, { fieldManager: 'other-writer' });

    const stale = await applyStatus(client, widgets, key, { phase: 'Stale' }, { fieldManager: 'helpers-test', resourceVersion: read.metadata.resourceVersion }).catch(
      (e: unknown) => e,
    );
    expect(stale instanceof KubeApiError ? stale.code : stale).toBe(409);
    const current = kubeObjectSchema.parse(await client.request('GET', objectPath(widgets, key)));
    expect(current).toMatchObject({ status: { phase: 'Moved' } });
    await applyStatus(client, widgets, key, { phase: 'Current' }, { fieldManager: 'helpers-test', resourceVersion: current.metadata.resourceVersion });
    expect(await client.request('GET', objectPath(widgets, key))).toMatchObject({ status: { phase: 'Current' } });
  });

  it('records a repeated event once, bumping its series count, and a different one separately', async () => {
    const regarding = kubeObjectSchema.parse(await client.request('GET', `/api/v1/namespaces/${namespace}/configmaps/applied`));
    const recorder = new EventRecorder({ client, reportingController: 'zkoam.dev/helpers-test', reportingInstance: 'test-1', logger: log });
    const scaled = { type: 'Normal', reason: 'Scaled', action: 'Scale', note: 'scaled to 3' } as const;
    await recorder.record(regarding, scaled);
    await recorder.record(regarding, scaled);
    await recorder.record(regarding, { ...scaled, type: 'Warning', reason: 'ScaleBlocked', note: 'quorum at risk' });
    const events = (await kubeConfig.makeApiClient(EventsV1Api).listNamespacedEvent({ namespace })).items;
    const summary = events.map((e) => [e.reason, e.series?.count ?? 1, e.regarding?.name, e.reportingController]).sort();
    expect(summary).toEqual([
      ['ScaleBlocked', 1, 'applied', 'zkoam.dev/helpers-test'],
      ['Scaled', 2, 'applied', 'zkoam.dev/helpers-test'],
    ]);
  });

  it('serves probes and metrics, and finishes the reconcile in flight before run() returns', async () => {
    const manager = new Manager({ name: 'helpers-test', kubeConfig, logger: log, registry: new Registry(), http: { port: 0 }, namespaces: [namespace] });
    const configMaps = manager.informer(coreResources.configMap, { schema: kubeObjectSchema });
    let finished = 0;
    let started = 0;
    manager.add(
      controller('slow')
        .for(configMaps)
        .reconcile(async () => {
          started++;
          await sleep(1_500);
          finished++;
          return done;
        }),
    );
    const stop = new AbortController();
    const running = manager.run(stop.signal);
    await until('the server to listen', 10_000, () => Promise.resolve(manager.httpPort !== undefined));
    const url = (path: string): string => `http://127.0.0.1:${String(manager.httpPort)}${path}`;
    expect((await fetch(url('/healthz'))).status).toBe(200);
    await until('readiness', 30_000, async () => (await fetch(url('/readyz'))).status === 200);
    await until('a reconcile to start', 30_000, () => Promise.resolve(started > 0));
    const metrics = await (await fetch(url('/metrics'))).text();
    for (const name of ['workqueue_depth', 'workqueue_adds_total', 'controller_runtime_reconcile_time_seconds', 'informer_watch_restarts_total']) {
      expect(metrics).toContain(name);
    }
    stop.abort();
    await running;
    expect(finished).toBe(started);
  });
});
