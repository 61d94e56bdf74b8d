// An informer survives a kube-apiserver restart (on a private control plane, so the shared bed is not
// disturbed) and its cache converges to the exact server state, including changes made while it was down. A
// metadata-only informer gets Secrets without their data from the real apiserver, and sees a change of the data. An
// informer of a custom kind follows its CRD deleted and created again within seconds, however long it was gone.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CoreV1Api } from '@kubernetes/client-node';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Informer, KubeClient, collectionPath, coreResources, createRuntimeMetrics, kubeObjectSchema, resourceName, type KubeObject, type ResourceType, PooledKubeConfig } from '@zk-oam/runtime';
import { resolveBinaries, startControlPlane, type ControlPlane } from '../src/bed/index.js';
import { waitFor } from '../src/wait-for.js';
import { createSchemalessCrd, crdPath } from '../src/schemaless-crd.js';

const dir = mkdtempSync(join(tmpdir(), 'zkoam-informer-'));
const namespace = 'informer-restart';
const log = pino({ level: 'warn' });
const registry = new Registry();
const metrics = createRuntimeMetrics(registry);
let controlPlane: ControlPlane;
let core: CoreV1Api;
let kubeConfig: PooledKubeConfig;
let informer: Informer<KubeObject>;
const deleted: string[] = [];

async function createConfigMap(name: string, value: string): Promise<void> {
  await core.createNamespacedConfigMap({ namespace, body: { metadata: { name }, data: { value } } });
}

function sortedRecord(entries: Array<[string, string]>): Record<string, string> {
  return Object.fromEntries(entries.sort(([a], [b]) => a.localeCompare(b)));
}

/** name -> resourceVersion, as the server has it now. */
async function serverState(): Promise<Record<string, string>> {
  const list = await core.listNamespacedConfigMap({ namespace });
  return sortedRecord(list.items.map((c) => [c.metadata?.name ?? '', c.metadata?.resourceVersion ?? '']));
}

function cacheState(): Record<string, string> {
  return sortedRecord(informer.lister.list({ namespace }).map((c) => [c.metadata.name, c.metadata.resourceVersion ?? '']));
}

async function until(what: string, timeoutMs: number, condition: () => boolean | Promise<boolean>): Promise<void> {
  await waitFor(what, async () => condition(), Boolean, timeoutMs, 100);
}

/** Restarts of every informer, or of the informers of `resource`. */
async function restartCount(resource?: ResourceType): Promise<number> {
  const values = (await metrics.informerRestarts.get()).values;
  return values.filter((sample) => resource === undefined || sample.labels['resource'] === resourceName(resource)).reduce((sum, sample) => sum + sample.value, 0);
}

const gadgets: ResourceType = { group: 'recreated.test.zkoam.dev', version: 'v1', plural: 'gadgets', kind: 'Gadget', namespaced: true };

describe('informer across a kube-apiserver restart', () => {
  beforeAll(async () => {
    controlPlane = await startControlPlane({ dir, log, controllers: false, binaries: await resolveBinaries(process.env) });
    kubeConfig = new PooledKubeConfig();
    kubeConfig.loadFromFile(controlPlane.kubeconfig);
    core = kubeConfig.makeApiClient(CoreV1Api);
    await core.createNamespace({ body: { metadata: { name: namespace } } });
    informer = new Informer({
      client: new KubeClient(kubeConfig),
      resource: coreResources.configMap,
      schema: kubeObjectSchema,
      namespace,
      logger: log,
      metrics,
      // Long enough that the apiserver is back (and changed) before the informer tries again.
      backoff: { baseMs: 4_000, maxMs: 8_000 },
    });
    informer.subscribe((event) => {
      if (event.type === 'deleted') deleted.push(event.object.metadata.name);
    });
  });

  afterAll(async () => {
    await informer.stop();
    await controlPlane.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('recovers its watch and misses no creation, update or deletion made around and during the outage', async () => {
    for (const name of ['kept', 'changed', 'doomed']) await createConfigMap(name, 'v1');
    informer.start();
    await informer.waitForSync();
    expect(Object.keys(cacheState()).sort()).toEqual(['changed', 'doomed', 'kept']);

    // Right before the outage, not yet seen by the informer.
    await createConfigMap('just-before', 'v1');
    const restartsBefore = await restartCount();
    await controlPlane.restartApiServer();

    // While the informer's watch is broken and it waits to retry.
    await createConfigMap('during', 'v1');
    await core.patchNamespacedConfigMap({
      namespace,
      name: 'changed',
      body: [{ op: 'replace', path: '/data/value', value: 'v2' }],
    });
    await core.deleteNamespacedConfigMap({ namespace, name: 'doomed' });
    // And once more right after, to prove the watch is live again.
    await createConfigMap('after', 'v1');

    const expected = await serverState();
    expect(Object.keys(expected).sort()).toEqual(['after', 'changed', 'during', 'just-before', 'kept']);
    await until('the cache to equal the server state', 90_000, () => JSON.stringify(cacheState()) === JSON.stringify(expected));

    expect(await restartCount()).toBeGreaterThan(restartsBefore);
    expect(deleted).toEqual(['doomed']);
    expect(informer.lister.get({ namespace, name: 'changed' })?.['data']).toEqual({ value: 'v2' });

    await createConfigMap('live', 'v1');
    await until('a change after recovery to reach the cache', 30_000, () => informer.lister.get({ namespace, name: 'live' }) !== undefined);
  });

  it("follows Secrets as metadata only: never their data, yet each change of it, across the apiserver's restart", async () => {
    await core.createNamespacedSecret({ namespace, body: { metadata: { name: 'listed' }, stringData: { password: 'first' } } });
    const secrets = new Informer<KubeObject>({ client: new KubeClient(kubeConfig), resource: coreResources.secret, schema: kubeObjectSchema, namespace, logger: log, metadataOnly: true });
    const seen: string[] = [];
    secrets.subscribe((event) => seen.push(`${event.type} ${event.object.metadata.name}`));
    secrets.start();
    try {
      await secrets.waitForSync();
      expect(secrets.lister.get({ namespace, name: 'listed' })).toMatchObject({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'listed' } });
      await core.createNamespacedSecret({ namespace, body: { metadata: { name: 'watched' }, stringData: { password: 'first' } } });
      await core.patchNamespacedSecret({ namespace, name: 'listed', body: [{ op: 'replace', path: '/data/password', value: Buffer.from('second').toString('base64') }] });
      await until('the new Secret and the changed one to reach the metadata cache', 30_000, async () => {
        const live = await core.readNamespacedSecret({ namespace, name: 'listed' });
        return secrets.lister.get({ namespace, name: 'watched' }) !== undefined && secrets.lister.get({ namespace, name: 'listed' })?.metadata.resourceVersion === live.metadata?.resourceVersion;
      });
      await controlPlane.restartApiServer();
      await core.deleteNamespacedSecret({ namespace, name: 'watched' });
      await until('a deletion after the restart to reach the metadata cache', 90_000, () => secrets.lister.get({ namespace, name: 'watched' }) === undefined);
      expect(seen).toEqual(['added listed', 'added watched', 'updated listed', 'deleted watched']);
      for (const secret of secrets.lister.list({ namespace })) expect(Object.keys(secret).sort()).toEqual(['apiVersion', 'kind', 'metadata']);
    } finally {
      await secrets.stop();
    }
  });

  it('follows a CRD deleted and created again within seconds, with no backoff grown while it was gone', async () => {
    const client = new KubeClient(kubeConfig);
    await createSchemalessCrd(client, gadgets, namespace);
    // Quick first retries, so that the failures below would have grown a backoff to its 30 s cap.
    const gadgetInformer = new Informer<KubeObject>({ client, resource: gadgets, schema: kubeObjectSchema, namespace, logger: log, metrics, backoff: { baseMs: 2_000, maxMs: 30_000 } });
    gadgetInformer.start();
    try {
      await gadgetInformer.waitForSync();
      const failuresBefore = await restartCount(gadgets);
      await client.request('DELETE', crdPath(gadgets));
      await until('the Gadget CRD to be gone', 60_000, () => client.request('GET', crdPath(gadgets)).then(() => false, () => true));
      // Five failed attempts in a row. A backoff that grew while the CRD was gone (2, 4, 8, 16 s) would make the next one
      // wait 30-45 s; one that stays short while the resource is not served retries within 6 s.
      await until('five failed attempts while the CRD is gone', 120_000, async () => (await restartCount(gadgets)) >= failuresBefore + 5);
      await createSchemalessCrd(client, gadgets, namespace);
      await client.request('POST', collectionPath(gadgets, namespace), { body: { apiVersion: `${gadgets.group}/v1`, kind: gadgets.kind, metadata: { name: 'made-again' } } });
      await until('the Gadget made after the CRD came back to reach the cache', 15_000, () => gadgetInformer.lister.get({ namespace, name: 'made-again' }) !== undefined);
    } finally {
      await gadgetInformer.stop();
    }
  });
});
