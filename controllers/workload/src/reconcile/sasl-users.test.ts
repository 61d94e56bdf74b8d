// The SASL step against a fake apiserver: the users Secret is read and checked, the JAAS Secret applied only when its
// content changes (its resourceVersion is the revision on the pod template), and kept once SASL is off.
import { derivedNames } from '@zk-oam/apis';
import { KubeApiError, kubeObjectSchema, type KubeClient, type KubeObject, type Lister } from '@zk-oam/runtime';
import { describe, expect, it } from 'vitest';
import { minimalWorkload, withSpec } from '../render/test-workloads.js';
import { AuthenticationSecretInvalidError } from './errors.js';
import { decodedData, encoded } from './secrets.js';
import { ensureSaslUsers } from './sasl-users.js';

/** Secrets by name; PATCH (apply) stores with the next resourceVersion when the data changed, GET reads or 404s. */
function fakeCluster(initial: Record<string, Record<string, string>> = {}): { deps: Parameters<typeof ensureSaslUsers>[0]; secrets: Map<string, KubeObject>; writes: string[] } {
  let version = 100;
  const secrets = new Map<string, KubeObject>(
    Object.entries(initial).map(([name, data]) => [name, { apiVersion: 'v1', kind: 'Secret', metadata: { name, resourceVersion: String(version++) }, data: encoded(data) }]),
  );
  const writes: string[] = [];
  const nameOf = (path: string): string => path.split('/').pop() ?? '';
  const client: Pick<KubeClient, 'request'> = {
    request: (method, path, options) => {
      const name = nameOf(path);
      const found = secrets.get(name);
      if (method === 'GET') {
        return found === undefined ? Promise.reject(new KubeApiError(404, 'NotFound', method, path, 'not found')) : Promise.resolve(found);
      }
      writes.push(`${method} ${name}`);
      const body = kubeObjectSchema.parse(options?.body);
      const same = JSON.stringify(found?.['data']) === JSON.stringify(body['data']);
      const stored = { ...body, metadata: { ...body.metadata, resourceVersion: same ? (found?.metadata.resourceVersion ?? '') : String(version++) } };
      secrets.set(name, stored);
      return Promise.resolve(stored);
    },
  };
  // The cache holds only the Secrets the controller labelled: not the user's.
  const lister: Lister<KubeObject> = { get: ({ name }) => (name === 'zk-users' ? undefined : secrets.get(name)), list: () => [...secrets.values()] };
  const empty: Lister<KubeObject> = { get: () => undefined, list: () => [] };
  const caches = { workloads: empty, statefulSets: empty, configMaps: empty, services: empty, podDisruptionBudgets: empty, secrets: lister, secretMetadata: empty, pods: empty };
  return { deps: { client, caches }, secrets, writes };
}

/** The JAAS Secret the controller renders for workload zk. */
const JAAS_SECRET = derivedNames('zk').saslSecret;
const withSasl = withSpec(minimalWorkload(), (spec) => ({ ...spec, authentication: { sasl: { usersSecretRef: { name: 'zk-users' } } } }));

describe('ensureSaslUsers', () => {
  it('does nothing for a workload without authentication', async () => {
    const { deps, writes } = fakeCluster();
    expect(await ensureSaslUsers(deps, minimalWorkload())).toEqual({ revision: undefined, actions: [] });
    expect(writes).toEqual([]);
  });

  it('renders the JAAS Secret from the users once; the next run writes nothing and keeps the revision', async () => {
    const { deps, secrets, writes } = fakeCluster({ 'zk-users': { alice: 'a-pass', bob: 'b-pass' } });
    const first = await ensureSaslUsers(deps, withSasl);
    expect(writes).toEqual(['PATCH zk-sasl']);
    expect(first).toEqual({
      revision: secrets.get(JAAS_SECRET)?.metadata.resourceVersion,
      actions: [{ verb: 'Created', kind: 'Secret', name: 'zk-sasl', note: "Created Secret zk-sasl (the members' JAAS file for 2 SASL user(s) of Secret zk-users)" }],
    });
    expect(decodedData(secrets.get(JAAS_SECRET))['jaas.conf']).toContain('user_alice="a-pass"\n  user_bob="b-pass";');

    expect(await ensureSaslUsers(deps, withSasl)).toEqual({ revision: first.revision, actions: [] });
    expect(writes).toHaveLength(1);
  });

  it('applies a changed password as a new revision', async () => {
    const { deps, secrets } = fakeCluster({ 'zk-users': { alice: 'a-pass' } });
    const first = await ensureSaslUsers(deps, withSasl);
    secrets.set('zk-users', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'zk-users' }, data: encoded({ alice: 'a-new-pass' }) });
    const second = await ensureSaslUsers(deps, withSasl);
    expect(second.revision).not.toBe(first.revision);
    expect(second.actions.map((action) => action.note)).toEqual(["Updated Secret zk-sasl (the members' JAAS file for 1 SASL user(s) of Secret zk-users)"]);
  });

  it('names a missing users Secret, and writes nothing', async () => {
    const { deps, writes } = fakeCluster();
    await expect(ensureSaslUsers(deps, withSasl)).rejects.toThrow(new AuthenticationSecretInvalidError('SASL users', 'zk-users', 'named in spec.authentication.sasl.usersSecretRef does not exist'));
    expect(writes).toEqual([]);
  });

  it('names an unusable users Secret and the problem, never the password, and writes nothing', async () => {
    const { deps, writes } = fakeCluster({ 'zk-users': { alice: 'se"cret' } });
    const failure = await ensureSaslUsers(deps, withSasl).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(AuthenticationSecretInvalidError);
    expect(String(failure)).toContain('SASL users Secret zk-users has an unusable password for user "alice"');
    expect(String(failure)).not.toContain('se"cret');
    expect(writes).toEqual([]);
  });

  it('keeps the JAAS Secret once the workload no longer uses SASL: a member on the previous template may restart', async () => {
    const { deps, secrets, writes } = fakeCluster({ 'zk-users': { alice: 'a-pass' } });
    await ensureSaslUsers(deps, withSasl);
    expect(await ensureSaslUsers(deps, minimalWorkload())).toEqual({ revision: undefined, actions: [] });
    expect(secrets.has(JAAS_SECRET)).toBe(true);
    expect(writes).toEqual(['PATCH zk-sasl']);
  });
});
