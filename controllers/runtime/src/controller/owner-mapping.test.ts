// Owner-reference mapping: a child's event enqueues its controller owner of the primary kind.
import { describe, expect, it } from 'vitest';
import type { KubeObject, OwnerReference } from '../kube/object.js';
import { ownerKeysOf } from './owner-mapping.js';

function child(ownerReferences: OwnerReference[]): KubeObject {
  return { metadata: { name: 'zk-0', namespace: 'prod', ownerReferences } };
}

const workload = { group: 'workload.zookeeper.zkoam.dev', kind: 'ZookeeperWorkload' };
const controllerRef: OwnerReference = {
  apiVersion: 'workload.zookeeper.zkoam.dev/v1alpha1',
  kind: 'ZookeeperWorkload',
  name: 'zk',
  uid: 'u1',
  controller: true,
};

describe('ownerKeysOf', () => {
  it('maps a child to its controller owner in the child namespace', () => {
    expect(ownerKeysOf(child([controllerRef]), workload)).toEqual([{ namespace: 'prod', name: 'zk' }]);
  });

  it('ignores the owner API version, matching on group and kind', () => {
    const ref = { ...controllerRef, apiVersion: 'workload.zookeeper.zkoam.dev/v1beta1' };
    expect(ownerKeysOf(child([ref]), workload)).toEqual([{ namespace: 'prod', name: 'zk' }]);
  });

  it('skips non-controller owners unless asked to include them', () => {
    const plain = { ...controllerRef, name: 'other', controller: undefined };
    expect(ownerKeysOf(child([plain]), workload)).toEqual([]);
    expect(ownerKeysOf(child([plain]), workload, { controllerOnly: false })).toEqual([{ namespace: 'prod', name: 'other' }]);
  });

  it('skips owners of another kind or group', () => {
    const otherKind = { ...controllerRef, kind: 'ZookeeperScale' };
    const otherGroup = { ...controllerRef, apiVersion: 'apps/v1' };
    const core = { ...controllerRef, apiVersion: 'v1' };
    expect(ownerKeysOf(child([otherKind, otherGroup, core]), workload)).toEqual([]);
  });

  it('maps nothing for an object without owners', () => {
    expect(ownerKeysOf({ metadata: { name: 'x', namespace: 'prod' } }, workload)).toEqual([]);
  });
});
