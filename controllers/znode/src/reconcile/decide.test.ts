// The decision on znodes naming a workload of another namespace, from the caches alone: refused unless the workload
// admits their namespace, and a refused znode claims no path, so that no namespace can take a path from the tenants
// the workload admits by creating znodes first.
import { memberSelectorLabels, ZOOKEEPER_WORKLOAD, ZOOKEEPER_ZNODE, zookeeperZnodeSchema, type LabelSelector } from '@zk-oam/apis';
import type { KubeObject, Lister, ObjectKey } from '@zk-oam/runtime';
import { describe, expect, it } from 'vitest';
import { decide } from './decide.js';
import type { ZnodeCaches } from './dependencies.js';

function lister(objects: readonly KubeObject[]): Lister<KubeObject> {
  const inNamespace = (object: KubeObject, namespace: string | undefined) => namespace === undefined || (object.metadata.namespace ?? '') === namespace;
  return {
    get: (key: ObjectKey) => objects.find((object) => object.metadata.name === key.name && (object.metadata.namespace ?? '') === key.namespace),
    list: (options = {}) => objects.filter((object) => inNamespace(object, options.namespace)),
  };
}

const workload = (namespaceSelector?: LabelSelector): KubeObject => ({
  apiVersion: ZOOKEEPER_WORKLOAD.apiVersion,
  kind: ZOOKEEPER_WORKLOAD.kind,
  metadata: { name: 'zk', namespace: 'zk-system', uid: 'w' },
  spec: namespaceSelector === undefined ? {} : { znodes: { namespaceSelector } },
});

const member: KubeObject = {
  metadata: { name: 'zk-0', namespace: 'zk-system', labels: memberSelectorLabels('zk') },
  status: { podIP: '127.0.0.10', conditions: [{ type: 'Ready', status: 'True' }] },
};

const namespace = (name: string, labels: Record<string, string>): KubeObject => ({ metadata: { name, labels } });

const znode = (name: string, ns: string, createdAt: string, path = '/kafka'): KubeObject => ({
  apiVersion: ZOOKEEPER_ZNODE.apiVersion,
  kind: ZOOKEEPER_ZNODE.kind,
  metadata: { name, namespace: ns, uid: `uid-${name}`, creationTimestamp: createdAt },
  spec: { workloadRef: { name: 'zk', namespace: 'zk-system' }, path },
});

const kafka = znode('kafka', 'kafka', '2026-11-28T10:00:10Z');
const rogue = znode('rogue', 'rogue', '2026-11-28T10:00:00Z');

function caches(selector: LabelSelector | undefined, znodes: readonly KubeObject[]): ZnodeCaches {
  return {
    traits: lister(znodes),
    workloads: lister([workload(selector)]),
    pods: lister([member]),
    namespaces: lister([namespace('kafka', { team: 'streaming' }), namespace('rogue', { team: 'other' }), namespace('zk-system', {})]),
  };
}

const decideFor = (selector: LabelSelector | undefined, target: KubeObject, znodes: readonly KubeObject[]) => decide(caches(selector, znodes), zookeeperZnodeSchema.parse(target));

describe('decide, for a znode naming a workload of another namespace', () => {
  it('refuses it when the workload has no namespaceSelector, with the reason a person reads', () => {
    expect(decideFor(undefined, kafka, [kafka])).toEqual({
      kind: 'Refused',
      reason: 'WorkloadNotShared',
      message: 'ZookeeperWorkload zk-system/zk admits ZookeeperZnodes of its own namespace only: it has no spec.znodes.namespaceSelector; nothing is done for this znode',
    });
  });

  it('serves it on the workload in the other namespace once the selector selects its namespace', () => {
    expect(decideFor({ matchLabels: { team: 'streaming' } }, kafka, [kafka])).toMatchObject({ kind: 'Serve', path: '/kafka', workload: { metadata: { namespace: 'zk-system' } }, members: [{ pod: 'zk-0' }] });
  });

  it('lets an earlier znode of a namespace the workload does not admit claim nothing', () => {
    const selector = { matchLabels: { team: 'streaming' } };
    expect(decideFor(selector, rogue, [kafka, rogue])).toMatchObject({ kind: 'Refused' });
    expect(decideFor(selector, kafka, [kafka, rogue])).toMatchObject({ kind: 'Serve', path: '/kafka' });
  });

  it('still refuses a later claim of an admitted namespace on the same path', () => {
    const later = znode('later', 'kafka', '2026-11-28T10:00:20Z');
    expect(decideFor({}, later, [kafka, later])).toMatchObject({ kind: 'Conflict', claim: { name: 'kafka' } });
  });
});
