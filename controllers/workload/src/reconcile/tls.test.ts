// The TLS step against a fake apiserver: the controller's own CA is created once (and renewed) and the member Secret
// issued from it; a CA Secret the user names is checked, and each problem is an error naming the Secret; a new CA is
// rotated to in three steps against a fake StatefulSet.
import { X509Certificate } from 'node:crypto';
import type { V1StatefulSet } from '@kubernetes/client-node';
import { derivedNames, memberSelectorLabels, TLS_SECRET_KEYS, ZOOKEEPER_WORKLOAD } from '@zk-oam/apis';
import { KubeApiError, kubeObjectSchema, type KubeClient, type KubeObject, type Lister } from '@zk-oam/runtime';
import { describe, expect, it } from 'vitest';
import { minimalWorkload, withSpec } from '../render/test-workloads.js';
import { CA_ROTATION_ANNOTATION } from '../tls/ca-rotation.js';
import { tlsPodAnnotations } from '../tls/member-config.js';
import { CA_VALIDITY_HOURS, issueCaSecretData } from '../tls/secret-data.js';
import { TlsCaSecretInvalidError } from './errors.js';
import { decodedData, encoded } from './secrets.js';
import { ensureTlsCertificates, type TlsOutcome } from './tls.js';

const NOW = new Date('2026-11-25T12:00:00Z');
/** The workload zk's member TLS Secret and the CA Secret the controller keeps for it. */
const { tlsSecret: MEMBER_SECRET, defaultTlsCaSecret: CA_SECRET, headlessService } = derivedNames('zk');

function fingerprint(secret: KubeObject | undefined, key: string): string {
  return new X509Certificate(decodedData(secret)[key] ?? '').fingerprint256;
}

/** Secrets by name in namespace prod; POST creates, PATCH (apply) creates or replaces, GET reads or answers 404. */
function fakeCluster(initial: Record<string, KubeObject> = {}): { deps: Parameters<typeof ensureTlsCertificates>[0]; secrets: Map<string, KubeObject>; writes: string[] } {
  const secrets = new Map(Object.entries(initial));
  const writes: string[] = [];
  const nameOf = (path: string): string => path.split('/').pop() ?? '';
  const client: Pick<KubeClient, 'request'> = {
    request: (method, path, options) => {
      const body = kubeObjectSchema.optional().parse(options?.body);
      if (method === 'GET') {
        const found = secrets.get(nameOf(path));
        return found === undefined ? Promise.reject(new KubeApiError(404, 'NotFound', method, path, 'not found')) : Promise.resolve(found);
      }
      if (body === undefined) throw new Error(`${method} without a body`);
      writes.push(`${method} ${body.metadata.name}`);
      secrets.set(body.metadata.name, body);
      return Promise.resolve(body);
    },
  };
  const lister: Lister<KubeObject> = { get: ({ name }) => (name.startsWith('user-') ? undefined : secrets.get(name)), list: () => [...secrets.values()] };
  const empty: Lister<KubeObject> = { get: () => undefined, list: () => [] };
  const caches = { workloads: empty, statefulSets: empty, configMaps: empty, services: empty, podDisruptionBudgets: empty, secrets: lister, secretMetadata: empty, pods: empty };
  return { deps: { client, caches, now: () => NOW, certManagerServed: () => Promise.resolve(true) }, secrets, writes };
}

const tlsOnly = withSpec(minimalWorkload(), (spec) => ({ ...spec, tls: { quorum: true, client: 'Only' } }));

describe('ensureTlsCertificates', () => {
  it('does nothing for a workload without TLS', async () => {
    const { deps, writes } = fakeCluster();
    expect(await ensureTlsCertificates(deps, minimalWorkload(), undefined)).toEqual({ state: undefined, actions: [] });
    expect(writes).toEqual([]);
  });

  it('creates its CA once, issues the member Secret from it, and on the next run writes nothing', async () => {
    const { deps, secrets, writes } = fakeCluster();
    const first = await ensureTlsCertificates(deps, tlsOnly, undefined);
    expect(writes).toEqual(['POST zk-tls-ca', 'PATCH zk-tls']);
    expect(first.actions.map((action) => action.note)).toEqual([
      "Created Secret zk-tls-ca (a new CA for the members' certificate)",
      `Created Secret zk-tls (member certificate until 2027-11-25T12:00:00Z: no certificate yet)`,
    ]);
    expect(fingerprint(secrets.get(MEMBER_SECRET), TLS_SECRET_KEYS.ca)).toBe(fingerprint(secrets.get(CA_SECRET), 'tls.crt'));
    expect(secrets.get(MEMBER_SECRET)?.metadata.ownerReferences?.[0]).toMatchObject({ kind: ZOOKEEPER_WORKLOAD.kind, name: 'zk', controller: true });

    const second = await ensureTlsCertificates(deps, tlsOnly, undefined);
    expect(writes).toHaveLength(2);
    expect(second).toEqual({ state: first.state, actions: [] });
  });

  it('names no key in what it returns: actions and state carry names, dates and the public CA only', async () => {
    const { deps } = fakeCluster();
    const outcome = await ensureTlsCertificates(deps, tlsOnly, undefined);
    expect(JSON.stringify(outcome)).not.toMatch(/PRIVATE KEY/);
  });

  it('issues the member Secret from a CA Secret the user names, and says when that Secret is missing or broken', async () => {
    const withUserCa = withSpec(tlsOnly, (spec) => ({ ...spec, tls: { ...spec.tls, certificates: { validityHours: 24, caSecretRef: { name: 'user-ca' } } } }));
    const { deps, secrets } = fakeCluster();
    await expect(ensureTlsCertificates(deps, withUserCa, undefined)).rejects.toThrow(new TlsCaSecretInvalidError('user-ca', 'named in spec.tls.certificates.caSecretRef does not exist'));

    secrets.set('user-ca', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'user-ca' }, data: { 'tls.crt': Buffer.from('x').toString('base64') } });
    await expect(ensureTlsCertificates(deps, withUserCa, undefined)).rejects.toThrow('TLS CA Secret user-ca lacks the key(s) tls.key');

    const own = fakeCluster();
    await ensureTlsCertificates(own.deps, tlsOnly, undefined);
    const ownCa = own.secrets.get(CA_SECRET);
    if (ownCa === undefined) throw new Error('no CA Secret was created');
    secrets.set('user-ca', { ...ownCa, metadata: { name: 'user-ca' } });
    const outcome = await ensureTlsCertificates(deps, withUserCa, undefined);
    expect(outcome.actions.map((action) => action.name)).toEqual(['zk-tls']);
    expect(fingerprint(secrets.get(MEMBER_SECRET), TLS_SECRET_KEYS.ca)).toBe(fingerprint(secrets.get('user-ca'), 'tls.crt'));
  });

  it('rotates to a new CA in three steps, each written once every member runs the one before', async () => {
    const { deps, secrets, writes } = fakeCluster();
    const first = await ensureTlsCertificates(deps, tlsOnly, undefined);
    const oldCa = decodedData(secrets.get(MEMBER_SECRET))[TLS_SECRET_KEYS.ca] ?? '';
    secrets.delete(CA_SECRET);
    // A minute later: the new CA's name carries the time it was made.
    const after = { ...deps, now: () => new Date(NOW.getTime() + 60_000) };
    const running = (outcome: TlsOutcome, updated = 3): V1StatefulSet => statefulSetRunning(outcome, updated);

    const step1 = await ensureTlsCertificates(after, tlsOnly, running(first));
    const newCa = new X509Certificate(decodedData(secrets.get(CA_SECRET))['tls.crt'] ?? '').toString();
    expect(step1.rotationBegun).toBe(1);
    expect(step1.state).toMatchObject({ fingerprint: first.state?.fingerprint, caRotation: 1, caPem: `${oldCa.trimEnd()}\n${newCa}` });
    expect(step1.actions.map((action) => action.note)).toEqual([
      "Created Secret zk-tls-ca (a new CA for the members' certificate)",
      expect.stringMatching(/^Updated Secret zk-tls \(member certificate until .*: rotating the CA, step 1 of 3 \(members trust the old and the new CA\)\)$/),
    ]);
    // The StatefulSet still renders the old content, or not every member restarted into step 1: nothing is written.
    expect(await ensureTlsCertificates(after, tlsOnly, running(first))).toMatchObject({ state: step1.state, actions: [] });
    expect(await ensureTlsCertificates(after, tlsOnly, running(step1, 2))).toMatchObject({ state: step1.state, actions: [] });

    const step2 = await ensureTlsCertificates(after, tlsOnly, running(step1));
    expect(step2.rotationBegun).toBe(2);
    expect(step2.state).toMatchObject({ caPem: step1.state?.caPem, caRotation: 2, trustBundleHash: step1.state?.trustBundleHash });
    expect(step2.state?.fingerprint).not.toBe(first.state?.fingerprint);
    expect(await ensureTlsCertificates(after, tlsOnly, running(step2, 1))).toMatchObject({ actions: [] });

    const step3 = await ensureTlsCertificates(after, tlsOnly, running(step2));
    expect(step3.rotationBegun).toBe(3);
    expect(step3.state).toMatchObject({ caPem: newCa, fingerprint: step2.state?.fingerprint, trustBundleHash: undefined, caRotation: 3 });
    // Step 3 rolls on while the StatefulSet records the rotation; done once every member runs it.
    expect(await ensureTlsCertificates(after, tlsOnly, withCaRotation(running(step3, 2), '3'))).toMatchObject({ state: { caRotation: 3 }, actions: [] });
    const done = await ensureTlsCertificates(after, tlsOnly, withCaRotation(running(step3), '3'));
    expect(done).toMatchObject({ state: { caRotation: undefined, caPem: newCa }, actions: [] });
    expect(writes).toEqual(['POST zk-tls-ca', 'PATCH zk-tls', 'POST zk-tls-ca', 'PATCH zk-tls', 'PATCH zk-tls', 'PATCH zk-tls']);
  });

  it('renews its own CA when two thirds of its life are gone, and the members then rotate to it', async () => {
    const cluster = fakeCluster();
    await ensureTlsCertificates(cluster.deps, tlsOnly, undefined);
    const oldCa = decodedData(cluster.secrets.get(CA_SECRET))['tls.crt'] ?? '';
    const later = new Date(NOW.getTime() + (CA_VALIDITY_HOURS * 3_600_000 * 2) / 3 + 3_600_000);
    const outcome = await ensureTlsCertificates({ ...cluster.deps, now: () => later }, tlsOnly, undefined);
    const newCa = decodedData(cluster.secrets.get(CA_SECRET))['tls.crt'] ?? '';
    expect(newCa).not.toBe(oldCa);
    expect(new X509Certificate(newCa).subject).not.toBe(new X509Certificate(oldCa).subject);
    expect(outcome.actions.map((action) => action.note)).toEqual([
      "Updated Secret zk-tls-ca (a new CA: two thirds of the previous one's life were gone)",
      expect.stringContaining('Updated Secret zk-tls (member certificate until'),
    ]);
    expect(outcome.rotationBegun).toBe(1);
  });

  it('refuses a new CA with the subject of the old one: ZooKeeper would trust only one of them', async () => {
    const withUserCa = withSpec(tlsOnly, (spec) => ({ ...spec, tls: { ...spec.tls, certificates: { validityHours: 24, caSecretRef: { name: 'user-ca' } } } }));
    const { deps, secrets, writes } = fakeCluster();
    const userCa = async (): Promise<KubeObject> => {
      const data = await issueCaSecretData({ commonName: 'the same name', now: NOW });
      return { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'user-ca' }, data: encoded(data) };
    };
    secrets.set('user-ca', await userCa());
    await ensureTlsCertificates(deps, withUserCa, undefined);
    secrets.set('user-ca', await userCa());
    await expect(ensureTlsCertificates(deps, withUserCa, undefined)).rejects.toThrow(/^TLS CA Secret user-ca holds a new CA with the subject of a CA the members trust \(CN=the same name\)/);
    expect(writes).toEqual(['PATCH zk-tls']);
  });
});

/** A StatefulSet rendered from the outcome's member Secret, `updated` of its 3 pods running it and ready. */
function statefulSetRunning(outcome: TlsOutcome, updated: number): V1StatefulSet {
  return {
    metadata: { name: 'zk', generation: 2, annotations: {} },
    spec: { replicas: 3, selector: { matchLabels: memberSelectorLabels('zk') }, serviceName: headlessService, template: { metadata: { annotations: tlsPodAnnotations(outcome.state?.fingerprint, outcome.state?.trustBundleHash) } } },
    status: { replicas: 3, observedGeneration: 2, updatedReplicas: updated, readyReplicas: 3 },
  };
}

function withCaRotation(statefulSet: V1StatefulSet, step: string): V1StatefulSet {
  return { ...statefulSet, metadata: { ...statefulSet.metadata, annotations: { [CA_ROTATION_ANNOTATION]: step } } };
}
