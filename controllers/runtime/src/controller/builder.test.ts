// The builder wires informer events to keys: the primary's own key, a child's controller owner, a mapped key.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { pino } from 'pino';
import { Informer } from '../informer/informer.js';
import { KubeApiError } from '../kube/client.js';
import { kubeObjectSchema, formatKey, type KubeObject } from '../kube/object.js';
import { coreResources, type ResourceType } from '../kube/resource.js';
import { ScriptedApiServer } from '../testing/scripted-api-server.js';
import { buildController, controller } from './builder.js';
import type { Controller } from './controller.js';
import { done } from './reconciler.js';

const logger = pino({ level: 'silent' });
const widgets: ResourceType = { group: 'test.zkoam.dev', version: 'v1', plural: 'widgets', kind: 'Widget', namespaced: true };

function object(name: string, extra: Partial<KubeObject['metadata']> = {}): KubeObject {
  return { metadata: { name, namespace: 'ns', resourceVersion: '1', ...extra } };
}

function informerOver(resource: ResourceType, items: KubeObject[]): Informer<KubeObject> {
  const server = new ScriptedApiServer();
  server.items = items;
  return new Informer({ client: server, resource, schema: kubeObjectSchema, logger });
}

describe('controller builder', () => {
  const running: Array<{ stop(): Promise<void> }> = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map((r) => r.stop()));
  });

  it('reconciles the primary, the controller owner of a child, and the keys a watch maps to, each once', async () => {
    const owner = { apiVersion: 'test.zkoam.dev/v1', kind: 'Widget', uid: 'u' };
    const primary = informerOver(widgets, [object('w1')]);
    const children = informerOver(coreResources.configMap, [
      object('c1', { ownerReferences: [{ ...owner, name: 'w1', controller: true }] }),
      object('c2', { ownerReferences: [{ ...owner, name: 'not-controller' }] }),
      object('c3'),
    ]);
    const secrets = informerOver(coreResources.secret, [object('s1', { labels: { widget: 'w9' } })]);
    const reconciled: string[] = [];
    const built: Controller = buildController(
      controller('widgets')
        .for(primary)
        .owns(children)
        .watches(secrets, (secret) => [{ namespace: 'ns', name: secret.metadata.labels?.['widget'] ?? '' }])
        .reconcile((key) => {
          reconciled.push(formatKey(key));
          return Promise.resolve(done);
        }),
      { logger },
    );
    running.push(built, primary, children, secrets);
    [primary, children, secrets].forEach((informer) => informer.start());
    await Promise.all([primary.waitForSync(), children.waitForSync(), secrets.waitForSync()]);
    // Every event is queued before the workers start, so duplicates have been merged by then.
    built.start();
    await vi.waitFor(() => expect(reconciled.length).toBeGreaterThanOrEqual(2), { interval: 5 });
    expect(built.queueLength).toBe(0);
    expect(reconciled.sort()).toEqual(['ns/w1', 'ns/w9']);
  });

  it('lets a namespace that refused a write as being deleted run again at once when an object is created there after the refusal', async () => {
    const server = new ScriptedApiServer();
    server.items = [object('doomed')];
    const widgetInformer = new Informer({ client: server, resource: widgets, schema: kubeObjectSchema, logger });
    const reconciled: string[] = [];
    const built = buildController(
      controller('widgets')
        .for(widgetInformer)
        .reconcile((key) => {
          reconciled.push(key.name);
          if (key.name !== 'doomed') return Promise.resolve(done);
          return Promise.reject(new KubeApiError(403, 'Forbidden', 'PATCH', '/x', 'ns is being terminated', ['NamespaceTerminating']));
        }),
      { logger },
    );
    running.push(built, widgetInformer);
    widgetInformer.start();
    await widgetInformer.waitForSync();
    built.start();
    await vi.waitFor(() => expect(reconciled).toEqual(['doomed']), { interval: 5 });
    const secondsAgo = (seconds: number): string => new Date(Math.floor(Date.now() / 1000 - seconds) * 1000).toISOString();
    // Created before the refusal, so the namespace may still be the one being deleted: it waits.
    server.lastWatch.send('ADDED', object('older', { creationTimestamp: secondsAgo(60) }));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(reconciled).toEqual(['doomed']);
    server.lastWatch.send('ADDED', object('made-again', { creationTimestamp: secondsAgo(-2) }));
    await vi.waitFor(() => expect(reconciled).toEqual(['doomed', 'made-again']), { interval: 5 });
  });

  it('passes on only the updates its filter lets through, and every creation and deletion', async () => {
    const primary = informerOver(widgets, []);
    const owned = (name: string, resourceVersion: string, labels: Record<string, string>) =>
      object(name, { resourceVersion, labels, ownerReferences: [{ apiVersion: 'test.zkoam.dev/v1', kind: 'Widget', name: 'w1', uid: 'u', controller: true }] });
    const childServer = new ScriptedApiServer();
    const children = new Informer({ client: childServer, resource: coreResources.configMap, schema: kubeObjectSchema, logger });
    const reconciled: string[] = [];
    const built = buildController(
      controller('widgets')
        .for(primary)
        .owns(children, { updates: (old, object) => old.metadata.labels?.['tier'] !== object.metadata.labels?.['tier'] })
        .reconcile((key) => {
          reconciled.push(`${key.name} after ${children.lister.get({ namespace: 'ns', name: 'c1' })?.metadata.resourceVersion ?? 'deletion'}`);
          return Promise.resolve(done);
        }),
      { logger },
    );
    running.push(built, primary, children);
    [primary, children].forEach((informer) => informer.start());
    await Promise.all([primary.waitForSync(), children.waitForSync()]);
    built.start();
    // A count reached and held for 50 ms: a reconcile the filter let through, or a second one queued, would show.
    const settled = async (count: number): Promise<void> => {
      await vi.waitFor(() => expect(reconciled).toHaveLength(count), { interval: 5 });
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(reconciled).toHaveLength(count);
    };
    childServer.lastWatch.send('ADDED', owned('c1', '11', { tier: 'a' }));
    await settled(1);
    childServer.lastWatch.send('MODIFIED', owned('c1', '12', { tier: 'a', other: 'x' }));
    await settled(1);
    childServer.lastWatch.send('MODIFIED', owned('c1', '13', { tier: 'b' }));
    await settled(2);
    childServer.lastWatch.send('DELETED', owned('c1', '14', { tier: 'b' }));
    await settled(3);
    expect(reconciled).toEqual(['w1 after 11', 'w1 after 13', 'w1 after deletion']);
  });

  it('refuses owns() before for(), since owners are of the primary kind', () => {
    expect(() => controller('c').owns(informerOver(coreResources.pod, []))).toThrow(/for\(\) before owns\(\)/);
  });
});
