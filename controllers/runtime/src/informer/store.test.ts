import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../kube/object.js';
import { listersOf, Store } from './store.js';

function pod(namespace: string, name: string, labels: Record<string, string>): KubeObject {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { namespace, name, labels } };
}

const names = (objects: readonly KubeObject[]): string[] => objects.map((object) => `${object.metadata.namespace ?? ''}/${object.metadata.name}`).sort();

describe('Store', () => {
  it('lists by labels the objects carrying every pair, in the namespace asked, as their labels change', () => {
    const store = new Store<KubeObject>();
    store.put(pod('a', 'zk-0', { app: 'zk', instance: 'zk' }));
    store.put(pod('a', 'zk-1', { app: 'zk', instance: 'zk' }));
    store.put(pod('a', 'other-0', { app: 'zk', instance: 'other' }));
    store.put(pod('b', 'zk-0', { app: 'zk', instance: 'zk' }));
    expect(names(store.list({ labels: { app: 'zk', instance: 'zk' } }))).toEqual(['a/zk-0', 'a/zk-1', 'b/zk-0']);
    expect(names(store.list({ namespace: 'a', labels: { instance: 'zk' } }))).toEqual(['a/zk-0', 'a/zk-1']);
    expect(names(store.list({ labels: { app: 'zk', instance: 'none' } }))).toEqual([]);
    expect(names(store.list({ namespace: 'b' }))).toEqual(['b/zk-0']);

    store.put(pod('a', 'zk-1', { app: 'zk', instance: 'other' }));
    expect(names(store.list({ labels: { instance: 'zk' } }))).toEqual(['a/zk-0', 'b/zk-0']);
    expect(names(store.list({ labels: { instance: 'other' } }))).toEqual(['a/other-0', 'a/zk-1']);
    store.remove(pod('a', 'zk-0', {}));
    expect(names(store.list({ labels: { instance: 'zk' } }))).toEqual(['b/zk-0']);

    store.put(pod('b', 'zk-0', { instance: 'zk', app: 'zk' }));
    expect(names(store.list({ labels: { app: 'zk', instance: 'zk' } }))).toEqual(['b/zk-0']);
    store.put(pod('b', 'zk-0', { app: 'zk', instance: 'zk', role: 'leader' }));
    expect(names(store.list({ labels: { role: 'leader' } }))).toEqual(['b/zk-0']);
    store.put(pod('b', 'zk-0', { app: 'zk', instance: 'zk' }));
    expect(store.list({ labels: { role: 'leader' } })).toEqual([]);
  });

  it('indexes anew what a list replaces the content with', () => {
    const store = new Store<KubeObject>();
    store.put(pod('a', 'zk-0', { instance: 'zk' }));
    const gone = store.replace([pod('a', 'zk-1', { instance: 'zk' }), pod('a', 'zk-0', { instance: 'other' })]);
    expect(gone).toEqual([]);
    expect(names(store.list({ labels: { instance: 'zk' } }))).toEqual(['a/zk-1']);
    expect(names(store.replace([]))).toEqual(['a/zk-0', 'a/zk-1']);
    expect(store.list({ labels: { instance: 'other' } })).toEqual([]);
  });
});

describe('listersOf', () => {
  it("gives each name its own informer's lister", () => {
    const pods = new Store<KubeObject>();
    const secrets = new Store<KubeObject>();
    pods.put({ metadata: { namespace: 'ns', name: 'zk-0' } });
    const caches = listersOf({ pods: { lister: pods }, secrets: { lister: secrets } });
    expect(caches.pods.list().map((pod) => pod.metadata.name)).toEqual(['zk-0']);
    expect(caches.secrets).toBe(secrets);
  });
});
