// The hand-made check accepts what kubeObjectSchema accepts, and nothing it refuses; the schema names what is wrong.
import { describe, expect, it } from 'vitest';
import { checkedKubeObjectSchema, isKubeObject } from './kube-object-check.js';
import { kubeObjectSchema } from './object.js';

const owner = { apiVersion: 'zookeeper.zkoam.dev/v1alpha1', kind: 'ZookeeperWorkload', name: 'zk', uid: 'u-1', controller: true, blockOwnerDeletion: true };
const pod = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name: 'zk-0',
    namespace: 'prod',
    uid: 'u-2',
    resourceVersion: '42',
    generation: 1,
    creationTimestamp: '2026-11-30T00:00:00Z',
    labels: { app: 'zk' },
    annotations: { note: 'x' },
    ownerReferences: [owner],
    finalizers: ['f'],
    managedFields: [{ manager: 'kubelet' }],
  },
  spec: { containers: [] },
  status: { podIP: '10.0.0.1' },
};

const accepted = [pod, { metadata: { name: 'bare' } }, { ...pod, metadata: { ...pod.metadata, deletionTimestamp: '2026-11-30T00:01:00Z' } }];

const refused = [
  null,
  [],
  'pod',
  {},
  { metadata: null },
  { metadata: {} },
  { ...pod, apiVersion: 1 },
  { ...pod, kind: false },
  { metadata: { name: 7 } },
  ...['namespace', 'uid', 'resourceVersion', 'creationTimestamp', 'deletionTimestamp'].map((field) => ({ metadata: { name: 'x', [field]: 1 } })),
  { metadata: { name: 'x', generation: 1.5 } },
  { metadata: { name: 'x', generation: '1' } },
  { metadata: { name: 'x', generation: 2 ** 60 } },
  { metadata: { name: 'x', labels: { app: 1 } } },
  { metadata: { name: 'x', labels: ['app'] } },
  { metadata: { name: 'x', annotations: { note: null } } },
  { metadata: { name: 'x', ownerReferences: owner } },
  { metadata: { name: 'x', ownerReferences: [{ ...owner, uid: undefined }] } },
  { metadata: { name: 'x', ownerReferences: [{ ...owner, controller: 'yes' }] } },
  { metadata: { name: 'x', ownerReferences: [{ ...owner, blockOwnerDeletion: 1 }] } },
  { metadata: { name: 'x', finalizers: 'f' } },
  { metadata: { name: 'x', finalizers: [1] } },
];

describe('isKubeObject', () => {
  it.each(accepted.map((object) => [object]))('accepts what the schema accepts: %j', (object) => {
    expect(kubeObjectSchema.safeParse(object).success).toBe(true);
    expect(isKubeObject(object)).toBe(true);
  });

  it.each(refused.map((object) => [object]))('refuses what the schema refuses: %j', (object) => {
    expect(kubeObjectSchema.safeParse(object).success).toBe(false);
    expect(isKubeObject(object)).toBe(false);
  });
});

describe('checkedKubeObjectSchema', () => {
  it('gives the object it checked, every field kept', () => {
    expect(checkedKubeObjectSchema.parse(pod)).toBe(pod);
  });

  it("refuses what the schema refuses, with the schema's account of the field", () => {
    const parsed = checkedKubeObjectSchema.safeParse({ metadata: { name: 'x', labels: { app: 1 } } });
    expect(parsed.success).toBe(false);
    expect(JSON.stringify(parsed.error?.issues)).toContain('labels');
  });
});
