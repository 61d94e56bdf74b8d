// The TLS step against a fake apiserver: the controller's own CA is created once and the member Secret issued from it;
// a CA Secret the user names is checked, and each problem is an error naming the Secret.
import { X509Certificate } from 'node:crypto';
import { KubeApiError, kubeObjectSchema, type KubeClient, type KubeObject, type Lister } from '@zk-oam/runtime';
import { describe, expect, it } from 'vitest';
import { minimalWorkload, withSpec } from '../render/test-workloads.js';
import { TlsCaSecretInvalidError } from './errors.js';
import { decodedData } from './secrets.js';
import { ensureTlsCertificates } from './tls-certificates.js';

const NOW = new Date('2026-11-25T12:00:00Z');

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
  const caches = { workloads: empty, statefulSets: empty, configMaps: empty, services: empty, podDisruptionBudgets: empty, secrets: lister, pods: empty };
  return { deps: { client, caches, now: () => NOW, certManagerServed: () => Promise.resolve(true) }, secrets, writes };
}

const tlsOnly = withSpec(minimalWorkload(), (spec) => ({ ...spec, tls: { quorum: true, client: 'Only' } }));

describe('ensureTlsCertificates', () => {
  it('does nothing for a workload without TLS', async () => {
    const { deps, writes } = fakeCluster();
    expect(await ensureTlsCertificates(deps, minimalWorkload())).toEqual({ state: undefined, actions: [] });
    expect(writes).toEqual([]);
  });

  it('creates its CA once, issues the member Secret from it, and on the next run writes nothing', async () => {
    const { deps, secrets, writes } = fakeCluster();
    const first = await ensureTlsCertificates(deps, tlsOnly);
    expect(writes).toEqual(['POST zk-tls-ca', 'PATCH zk-tls']);
    expect(first.actions.map((action) => action.note)).toEqual([
      "Created Secret zk-tls-ca (a new CA for the members' certificate)",
      `Created Secret zk-tls (member certificate until ${new Date(NOW.getTime() + 8_760 * 3_600_000).toISOString()}: no certificate yet)`,
    ]);
    expect(fingerprint(secrets.get('zk-tls'), 'ca.crt')).toBe(fingerprint(secrets.get('zk-tls-ca'), 'tls.crt'));
    expect(secrets.get('zk-tls')?.metadata.ownerReferences?.[0]).toMatchObject({ kind: 'ZookeeperWorkload', name: 'zk', controller: true });

    const second = await ensureTlsCertificates(deps, tlsOnly);
    expect(writes).toHaveLength(2);
    expect(second).toEqual({ state: first.state, actions: [] });
  });

  it('names no key in what it returns: actions and state carry names, dates and the public CA only', async () => {
    const { deps } = fakeCluster();
    const outcome = await ensureTlsCertificates(deps, tlsOnly);
    expect(JSON.stringify(outcome)).not.toMatch(/PRIVATE KEY/);
  });

  it('issues the member Secret from a CA Secret the user names, and says when that Secret is missing or broken', async () => {
    const withUserCa = withSpec(tlsOnly, (spec) => ({ ...spec, tls: { ...spec.tls, certificates: { validityHours: 24, caSecretRef: { name: 'user-ca' } } } }));
    const { deps, secrets } = fakeCluster();
    await expect(ensureTlsCertificates(deps, withUserCa)).rejects.toThrow(new TlsCaSecretInvalidError('user-ca', 'named in spec.tls.certificates.caSecretRef does not exist'));

    secrets.set('user-ca', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'user-ca' }, data: { 'tls.crt': Buffer.from('x').toString('base64') } });
    await expect(ensureTlsCertificates(deps, withUserCa)).rejects.toThrow('TLS CA Secret user-ca lacks the key(s) tls.key');

    const own = fakeCluster();
    await ensureTlsCertificates(own.deps, tlsOnly);
    const ownCa = own.secrets.get('zk-tls-ca');
    if (ownCa === undefined) throw new Error('no CA Secret was created');
    secrets.set('user-ca', { ...ownCa, metadata: { name: 'user-ca' } });
    const outcome = await ensureTlsCertificates(deps, withUserCa);
    expect(outcome.actions.map((action) => action.name)).toEqual(['zk-tls']);
    expect(fingerprint(secrets.get('zk-tls'), 'ca.crt')).toBe(fingerprint(secrets.get('user-ca'), 'tls.crt'));
  });

  it('issues nothing when the CA changed under running members, and says what to do: rotating the CA is not supported yet', async () => {
    const { deps, secrets, writes } = fakeCluster();
    await ensureTlsCertificates(deps, tlsOnly);
    secrets.delete('zk-tls-ca');
    await expect(ensureTlsCertificates(deps, tlsOnly)).rejects.toThrow(
      /^TLS CA Secret zk-tls-ca holds another CA than the one that issued the members' certificate \(Secret zk-tls\); rotating the CA is not supported yet/,
    );
    expect(writes).toEqual(['POST zk-tls-ca', 'PATCH zk-tls', 'POST zk-tls-ca']);
  });
});
