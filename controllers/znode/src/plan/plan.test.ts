// Who may be a tenant of a workload, the path a znode gets and who may have it, and what its deletion comes to.
import { describe, expect, it } from 'vitest';
import { admission, conflictingClaim, deletionStep, principalId, tenantPrincipal, znodePath, type AdmissionInput, type DeletionInput, type PathClaim } from './index.js';

const claim = (name: string, path: string, createdAt: string, uid = `uid-${name}`, served = false): PathClaim => ({ name, uid, path, createdAt, served });

describe('znodePath', () => {
  it('is spec.path, or /znode-<uid> without one', () => {
    expect(znodePath({ path: '/kafka' }, 'u1')).toBe('/kafka');
    expect(znodePath({}, 'u1')).toBe('/znode-u1');
  });
});

describe('admission', () => {
  const workload = (namespaceSelector?: AdmissionInput['workload']['namespaceSelector']): AdmissionInput['workload'] => ({ namespace: 'zk', name: 'zk', namespaceSelector });
  const kafka = { 'kubernetes.io/metadata.name': 'kafka', team: 'streaming', tier: 'prod' };

  it("admits the workload's own namespace, whatever the selector", () => {
    expect(admission({ workload: workload(), znodeNamespace: 'zk', namespaceLabels: undefined })).toEqual({ admitted: true });
    expect(admission({ workload: workload({ matchLabels: { team: 'none' } }), znodeNamespace: 'zk', namespaceLabels: {} })).toEqual({ admitted: true });
  });

  it('refuses every other namespace without a selector, and says the workload has none', () => {
    expect(admission({ workload: workload(), znodeNamespace: 'kafka', namespaceLabels: kafka })).toEqual({
      admitted: false,
      message: 'ZookeeperWorkload zk/zk admits ZookeeperZnodes of its own namespace only: it has no spec.znodes.namespaceSelector',
    });
  });

  it.each([
    ['an empty selector', {}],
    ['matchLabels', { matchLabels: { team: 'streaming' } }],
    ['In', { matchExpressions: [{ key: 'tier', operator: 'In' as const, values: ['prod', 'staging'] }] }],
    ['NotIn', { matchExpressions: [{ key: 'tier', operator: 'NotIn' as const, values: ['dev'] }] }],
    ['Exists', { matchExpressions: [{ key: 'team', operator: 'Exists' as const }] }],
    ['DoesNotExist', { matchExpressions: [{ key: 'quarantined', operator: 'DoesNotExist' as const }] }],
    ['the namespace name label', { matchLabels: { 'kubernetes.io/metadata.name': 'kafka' } }],
  ])('admits a namespace the selector selects: %s', (_case, selector) => {
    expect(admission({ workload: workload(selector), znodeNamespace: 'kafka', namespaceLabels: kafka })).toEqual({ admitted: true });
  });

  it.each([
    ['a label of another value', { matchLabels: { team: 'billing' } }],
    ['one of two labels missing', { matchLabels: { team: 'streaming', approved: 'true' } }],
    ['In without the value', { matchExpressions: [{ key: 'tier', operator: 'In' as const, values: ['staging'] }] }],
    ['In on a missing label', { matchExpressions: [{ key: 'approved', operator: 'In' as const, values: ['true'] }] }],
    ['NotIn with the value', { matchExpressions: [{ key: 'tier', operator: 'NotIn' as const, values: ['prod'] }] }],
    ['Exists on a missing label', { matchExpressions: [{ key: 'approved', operator: 'Exists' as const }] }],
    ['DoesNotExist on a present label', { matchExpressions: [{ key: 'team', operator: 'DoesNotExist' as const }] }],
    ['labels matching but an expression not', { matchLabels: { team: 'streaming' }, matchExpressions: [{ key: 'approved', operator: 'Exists' as const }] }],
  ])('refuses a namespace the selector does not select: %s', (_case, selector) => {
    expect(admission({ workload: workload(selector), znodeNamespace: 'kafka', namespaceLabels: kafka })).toEqual({
      admitted: false,
      message: "ZookeeperWorkload zk/zk does not admit namespace kafka: its spec.znodes.namespaceSelector does not select that namespace's labels",
    });
  });

  it('refuses a namespace it does not know yet, even to an empty selector', () => {
    expect(admission({ workload: workload({}), znodeNamespace: 'kafka', namespaceLabels: undefined })).toMatchObject({ admitted: false, message: 'namespace kafka is not known to the controller yet' });
  });
});

describe('tenantPrincipal', () => {
  const sasl = { usersSecretRef: { name: 'users' } };
  const x509 = { clientCaSecretRef: { name: 'clients' } };
  const alice = { x509: { subject: 'CN=alice,O=example' } };
  const on = (authentication: Parameters<typeof tenantPrincipal>[0]['authentication']) => ({ name: 'zk', authentication });

  it('is the certificate subject the user names, on a workload with x509, with or without SASL beside it', () => {
    expect(tenantPrincipal(on({ x509 }), alice)).toEqual({ kind: 'x509', subject: 'CN=alice,O=example' });
    expect(tenantPrincipal(on({ sasl, x509 }), alice)).toEqual({ kind: 'x509', subject: 'CN=alice,O=example' });
  });

  it('is a SASL user the controller makes when the user names none and the workload has SASL', () => {
    expect(tenantPrincipal(on({ sasl }), undefined)).toEqual({ kind: 'sasl' });
    expect(tenantPrincipal(on({ sasl, x509 }), undefined)).toEqual({ kind: 'sasl' });
  });

  it('is nobody on a workload that does not authenticate clients', () => {
    expect(tenantPrincipal(on(undefined), undefined)).toEqual({ kind: 'open' });
  });

  it('refuses a certificate subject on a workload without x509, and no principal on one with x509 alone', () => {
    expect(tenantPrincipal(on({ sasl }), alice)).toEqual({
      kind: 'mismatch',
      message: 'spec.principal.x509 names a certificate subject, but ZookeeperWorkload zk does not authenticate clients by certificate (no spec.authentication.x509)',
    });
    expect(tenantPrincipal(on(undefined), alice)).toMatchObject({ kind: 'mismatch' });
    expect(tenantPrincipal(on({ x509 }), undefined)).toEqual({
      kind: 'mismatch',
      message: "ZookeeperWorkload zk authenticates clients by certificate alone: spec.principal.x509.subject must name the subject of the tenant's certificate",
    });
  });

  it('is named in the ACL and the status as scheme:id', () => {
    expect(principalId({ scheme: 'x509', id: 'CN=alice,O=example' })).toBe('x509:CN=alice,O=example');
  });
});

describe('conflictingClaim', () => {
  const own = claim('b', '/apps/kafka', '2026-11-28T10:00:01Z');

  it.each([
    ['the same path', '/apps/kafka'],
    ['a parent', '/apps'],
    ['a path under it', '/apps/kafka/brokers'],
  ])('refuses a later claim on %s', (_case, path) => {
    const first = claim('a', path, '2026-11-28T10:00:00Z');
    expect(conflictingClaim(own, [first])).toBe(first);
    expect(conflictingClaim(first, [own])).toBeUndefined();
  });

  it('lets siblings and look-alike prefixes be', () => {
    expect(conflictingClaim(own, [claim('a', '/apps/kafka2', '2026-11-28T10:00:00Z'), claim('c', '/apps/solr', '2026-11-28T10:00:00Z')])).toBeUndefined();
  });

  it('orders claims made in the same second by uid, the same in every process', () => {
    const a = claim('a', '/x', '2026-11-28T10:00:00Z', 'uid-1');
    const b = claim('b', '/x', '2026-11-28T10:00:00Z', 'uid-2');
    expect(conflictingClaim(b, [a])).toBe(a);
    expect(conflictingClaim(a, [b])).toBeUndefined();
  });

  it('puts a served claim before a newcomer made in the same second, whatever their uids', () => {
    const serving = claim('kept', '/shared', '2026-11-28T10:00:00Z', 'uid-2', true);
    const newcomer = claim('inner', '/shared/inner', '2026-11-28T10:00:00Z', 'uid-1');
    expect(conflictingClaim(newcomer, [serving])).toBe(serving);
    expect(conflictingClaim(serving, [newcomer])).toBeUndefined();
  });

  it('names the earliest of several', () => {
    const first = claim('a', '/apps', '2026-11-28T09:00:00Z');
    const second = claim('c', '/apps/kafka', '2026-11-28T09:30:00Z');
    expect(conflictingClaim(own, [second, first])).toBe(first);
  });
});

describe('deletionStep', () => {
  const base: DeletionInput = {
    workload: 'present',
    workloadName: 'zk',
    retain: false,
    admitted: true,
    conflicting: false,
    deletionTimestamp: new Date('2026-11-28T10:00:00Z'),
    now: new Date('2026-11-28T10:00:10Z'),
    releaseAfterMs: 60_000,
  };

  it('cleans up while the workload serves, keeping the path under Retain', () => {
    expect(deletionStep(base)).toEqual({ kind: 'CleanUp', retain: false });
    expect(deletionStep({ ...base, retain: true })).toEqual({ kind: 'CleanUp', retain: true });
  });

  it('waits for a missing workload until the bounded wait ends, then lets go', () => {
    expect(deletionStep({ ...base, workload: 'missing' })).toEqual({ kind: 'Wait', remainingMs: 50_000 });
    expect(deletionStep({ ...base, workload: 'missing', now: new Date('2026-11-28T10:01:00Z') })).toEqual({
      kind: 'Release',
      why: 'ZookeeperWorkload zk does not exist 60 s after the deletion began; the path, if any, is left',
    });
  });

  it('lets go at once when the workload is being deleted too', () => {
    expect(deletionStep({ ...base, workload: 'deleting' })).toMatchObject({ kind: 'Release' });
  });

  it("takes back the user of a znode its workload no longer admits, and leaves the path: it may be another tenant's now", () => {
    expect(deletionStep({ ...base, admitted: false })).toEqual({
      kind: 'Revoke',
      why: "ZookeeperWorkload zk does not admit the znode's namespace (any more); its path, if any, is left",
    });
  });

  it("never deletes a path another znode claimed first", () => {
    expect(deletionStep({ ...base, conflicting: true })).toMatchObject({ kind: 'Release', why: expect.stringContaining('earlier ZookeeperZnode') as unknown });
  });
});
