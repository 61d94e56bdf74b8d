// The client CA step against a fake apiserver: the user's Secret is read from the API and checked; its ca.crt digest
// is the revision on the pod template; a missing or unusable one names the Secret and the key; nothing is ever written.
import { CA_SECRET_KEYS } from '@zk-oam/apis';
import { KubeApiError, type KubeClient, type KubeObject, type Lister } from '@zk-oam/runtime';
import { describe, expect, it } from 'vitest';
import { minimalWorkload, withSpec } from '../render/test-workloads.js';
import { issueCaSecretData } from '../tls/secret-data.js';
import { AuthenticationSecretInvalidError } from './errors.js';
import { encoded } from './secrets.js';
import { checkClientCa } from './tls.js';

/** The user's Secrets by name, from the API only (the cache holds the controller's own); any write is recorded. */
function fakeCluster(initial: Record<string, Record<string, string>> = {}): { deps: Parameters<typeof checkClientCa>[0]; writes: string[] } {
  const writes: string[] = [];
  const client: Pick<KubeClient, 'request'> = {
    request: (method, path) => {
      const name = path.split('/').pop() ?? '';
      const data = initial[name];
      if (method !== 'GET') writes.push(`${method} ${name}`);
      if (data === undefined) return Promise.reject(new KubeApiError(404, 'NotFound', method, path, 'not found'));
      return Promise.resolve({ apiVersion: 'v1', kind: 'Secret', metadata: { name }, data: encoded(data) });
    },
  };
  const empty: Lister<KubeObject> = { get: () => undefined, list: () => [] };
  const caches = { workloads: empty, statefulSets: empty, configMaps: empty, services: empty, podDisruptionBudgets: empty, secrets: empty, secretMetadata: empty, pods: empty };
  return { deps: { client, caches }, writes };
}

const withX509 = withSpec(minimalWorkload(), (spec) => ({
  ...spec,
  tls: { ...spec.tls, client: 'Alongside' },
  authentication: { x509: { clientCaSecretRef: { name: 'client-ca' } } },
}));

describe('checkClientCa', () => {
  it('does nothing for a workload without x509', async () => {
    expect(await checkClientCa(fakeCluster().deps, minimalWorkload())).toBeUndefined();
  });

  it('gives the digest of a usable ca.crt, and writes nothing', async () => {
    const ca = (await issueCaSecretData({ commonName: 'clients', now: new Date() }))[CA_SECRET_KEYS.certificate] ?? '';
    const { deps, writes } = fakeCluster({ 'client-ca': { 'ca.crt': ca } });
    expect(await checkClientCa(deps, withX509)).toMatch(/^[0-9a-f]{64}$/);
    expect(writes).toEqual([]);
  });

  it('names a missing Secret', async () => {
    await expect(checkClientCa(fakeCluster().deps, withX509)).rejects.toThrow(
      new AuthenticationSecretInvalidError('client CA', 'client-ca', 'named in spec.authentication.x509.clientCaSecretRef does not exist'),
    );
  });

  it('names the Secret and the key of an unusable CA', async () => {
    const { deps } = fakeCluster({ 'client-ca': { 'ca.crt': 'garbage' } });
    await expect(checkClientCa(deps, withX509)).rejects.toThrow('client CA Secret client-ca has no PEM certificate in ca.crt');
  });
});
