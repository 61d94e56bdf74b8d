// The merged informer against a scripted apiserver: one list and watch per namespace, one cache and one event stream.
import { afterEach, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { coreResources, type ResourceType } from '../kube/resource.js';
import { kubeObjectSchema, type KubeObject } from '../kube/object.js';
import { ScriptedApiServer } from '../testing/scripted-api-server.js';
import { MergedInformer } from './merged-informer.js';

const logger = pino({ level: 'silent' });
const nodes: ResourceType = { group: '', version: 'v1', plural: 'nodes', kind: 'Node', namespaced: false };

function configMap(namespace: string, name: string, resourceVersion = '1'): KubeObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace, resourceVersion } };
}

describe('MergedInformer', () => {
  const running: MergedInformer<KubeObject>[] = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map((informer) => informer.stop()));
  });

  async function started(server: ScriptedApiServer, resource: ResourceType, namespaces: readonly string[]): Promise<{ informer: MergedInformer<KubeObject>; events: string[] }> {
    const informer = new MergedInformer<KubeObject>({ client: server, resource, schema: kubeObjectSchema, logger, namespaces });
    const events: string[] = [];
    informer.subscribe((event) => events.push(`${event.type} ${event.object.metadata.namespace ?? ''}/${event.object.metadata.name}`));
    running.push(informer);
    informer.start();
    await informer.waitForSync();
    return { informer, events };
  }

  it('lists and watches each namespace on its own, and caches and tells of those namespaces alone, as one informer', async () => {
    const server = new ScriptedApiServer();
    server.items = [configMap('kafka', 'a'), configMap('billing', 'b'), configMap('elsewhere', 'c')];
    const { informer, events } = await started(server, coreResources.configMap, ['kafka', 'billing']);
    expect(informer.hasSynced()).toBe(true);
    expect(server.listPaths).toEqual(['/api/v1/namespaces/kafka/configmaps', '/api/v1/namespaces/billing/configmaps']);
    await expect.poll(() => server.watches.map((watch) => watch.path)).toEqual(server.listPaths);
    expect(events.sort()).toEqual(['added billing/b', 'added kafka/a']);
    expect(informer.lister.list().map((object) => object.metadata.name).sort()).toEqual(['a', 'b']);
    expect(informer.lister.list({ namespace: 'billing' }).map((object) => object.metadata.name)).toEqual(['b']);
    expect(informer.lister.get({ namespace: 'billing', name: 'b' })?.metadata.name).toBe('b');
    expect(informer.lister.get({ namespace: 'elsewhere', name: 'c' })).toBeUndefined();

    const billingWatch = server.watches.find((watch) => watch.path.includes('/billing/'));
    billingWatch?.send('ADDED', configMap('billing', 'd', '11'));
    expect(events.at(-1)).toBe('added billing/d');
    expect(informer.lister.get({ namespace: 'billing', name: 'd' })).toBeDefined();
  });

  it('is one informer over every namespace when none is named', async () => {
    const server = new ScriptedApiServer();
    server.items = [configMap('kafka', 'a'), configMap('elsewhere', 'c')];
    const { informer } = await started(server, coreResources.configMap, []);
    expect(server.listPaths).toEqual(['/api/v1/configmaps']);
    expect(informer.lister.list()).toHaveLength(2);
  });

  it('is one informer for a cluster-scoped kind, whatever the namespaces', async () => {
    const server = new ScriptedApiServer();
    server.items = [{ apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-1', resourceVersion: '1' } }];
    const { informer } = await started(server, nodes, ['kafka', 'billing']);
    expect(server.listPaths).toEqual(['/api/v1/nodes']);
    expect(informer.lister.get({ namespace: '', name: 'node-1' })?.metadata.name).toBe('node-1');
  });
});
