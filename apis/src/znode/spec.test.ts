// What a ZookeeperZnode's spec accepts: paths of the allowed form only (never ".", "..", a trailing slash or ZooKeeper's
// own subtree), and the Delete reclaim policy by default. The CRD's pattern is the same regular expression.
import { describe, expect, it } from 'vitest';
import { crdManifests } from '../crd/manifests.js';
import { ZNODE_PATH_PATTERN, znodeSpecSchema, znodeWorkloadKey } from './spec.js';

const spec = (path: string | undefined): unknown => ({ workloadRef: { name: 'zk' }, ...(path === undefined ? {} : { path }) });

describe('spec.workloadRef', () => {
  it('takes a namespace, the znode\'s own when absent', () => {
    expect(znodeSpecSchema.parse({ workloadRef: { name: 'zk', namespace: 'zk-system' } }).workloadRef).toMatchObject({ name: 'zk', namespace: 'zk-system' });
    expect(znodeWorkloadKey({ metadata: { namespace: 'kafka' }, spec: { workloadRef: { name: 'zk' } } })).toEqual({ namespace: 'kafka', name: 'zk' });
    expect(znodeWorkloadKey({ metadata: { namespace: 'kafka' }, spec: { workloadRef: { name: 'zk', namespace: 'zk-system' } } })).toEqual({ namespace: 'zk-system', name: 'zk' });
  });

  it.each(['Zk-System', 'zk.system', '-zk', 'a'.repeat(64)])('refuses the namespace %s', (namespace) => {
    expect(znodeSpecSchema.safeParse({ workloadRef: { name: 'zk', namespace } }).success).toBe(false);
  });
});

describe('spec.principal.x509.subject', () => {
  it.each(['CN=kafka', 'CN=kafka,O=example', 'CN=kafka\\, the broker,O=example', '1.2.840.113549.1.9.1=#16'])('accepts %s', (subject) => {
    expect(znodeSpecSchema.safeParse({ workloadRef: { name: 'zk' }, principal: { x509: { subject } } }).success).toBe(true);
  });

  it.each(['', 'kafka', '=kafka', 'CN=a\nO=b'])('refuses %j', (subject) => {
    expect(znodeSpecSchema.safeParse({ workloadRef: { name: 'zk' }, principal: { x509: { subject } } }).success).toBe(false);
  });
});

describe('spec.path', () => {
  it.each(['/kafka', '/kafka/prod', '/a_b/c-d/e.f', '/x/_y', '/zookeeper2', '/znode-0d5c2a1e-8f0b-4b43-9d0c-6a0f3b2f7e10'])('accepts %s', (path) => {
    expect(znodeSpecSchema.safeParse(spec(path)).success).toBe(true);
  });

  it.each([
    ['the root', '/'],
    ['a relative path', 'kafka'],
    ['a trailing slash', '/kafka/'],
    ['an empty segment', '/kafka//prod'],
    ['a dot segment', '/kafka/./prod'],
    ['a dot-dot segment', '/kafka/../other'],
    ['a hidden segment', '/.kafka'],
    ['a segment starting with a dash', '/-kafka'],
    ['a space', '/kafka prod'],
    ["ZooKeeper's own subtree", '/zookeeper'],
    ["a path under ZooKeeper's own subtree", '/zookeeper/config'],
    ['a segment longer than 64 characters', `/${'a'.repeat(65)}`],
  ])('refuses %s (%s)', (_case, path) => {
    expect(znodeSpecSchema.safeParse(spec(path)).success).toBe(false);
  });

  it('is optional, and reclaimPolicy defaults to Delete', () => {
    expect(znodeSpecSchema.parse(spec(undefined))).toMatchObject({ reclaimPolicy: 'Delete' });
  });

  it('is refused by the CRD with the same pattern, and under /zookeeper by a CEL rule', () => {
    const crd = crdManifests().find((candidate) => candidate.spec.names.kind === 'ZookeeperZnode');
    const path = crd?.spec.versions[0]?.schema.openAPIV3Schema.properties?.['spec']?.properties?.['path'];
    expect(path?.pattern).toBe(ZNODE_PATH_PATTERN.source);
    expect(path?.['x-kubernetes-validations']?.map((rule) => rule.rule)).toEqual(["self != '/zookeeper' && !self.startsWith('/zookeeper/')"]);
  });
});
