// From a user's Secret to the workloads whose spec names it: the four references, one namespace, nothing for others.
import { formatKey, type KubeObject } from '@zk-oam/runtime';
import { describe, expect, it } from 'vitest';
import { fullWorkload, minimalWorkload } from '../render/test-workloads.js';
import { namedSecrets, SecretReaders } from './named-secrets.js';

function workload(namespace: string, name: string, spec: unknown): KubeObject {
  return { metadata: { namespace, name }, spec };
}

const workloads = [
  fullWorkload(),
  workload('prod', 'sasl', { authentication: { sasl: { usersSecretRef: { name: 'zk-users' } } } }),
  workload('prod', 'own-secrets', {}),
  workload('staging', 'sasl', { authentication: { sasl: { usersSecretRef: { name: 'zk-users' } } } }),
  workload('prod', 'not-a-spec', 'garbage'),
];

describe('namedSecrets', () => {
  it("names the superuser, TLS CA, SASL users and client CA Secrets of a spec that sets them all (the API's full example)", () => {
    expect(namedSecrets(fullWorkload())).toEqual(['zk-superuser', 'zk-ca', 'zk-users', 'zk-client-ca']);
  });

  it("names none for a workload on the controller's own Secrets, or one whose spec is not an object", () => {
    expect(namedSecrets(minimalWorkload())).toEqual([]);
    expect(namedSecrets(workload('prod', 'not-a-spec', 'garbage'))).toEqual([]);
  });

  it('reads a cached version once, and a new version again', () => {
    const cached = workload('prod', 'sasl', { authentication: { sasl: { usersSecretRef: { name: 'zk-users' } } } });
    const first = namedSecrets(cached);
    expect(namedSecrets(cached)).toBe(first);
    const next = workload('prod', 'sasl', { authentication: { sasl: { usersSecretRef: { name: 'zk-users-2' } } } });
    expect(namedSecrets(next)).toEqual(['zk-users-2']);
  });
});

describe('SecretReaders', () => {
  const secret = (namespace: string, name: string): KubeObject => ({ metadata: { namespace, name } });
  const readersOf = (readers: SecretReaders, namespace: string, name: string): string[] => readers.of(secret(namespace, name)).map(formatKey);

  function following(objects: readonly KubeObject[]): SecretReaders {
    const readers = new SecretReaders();
    for (const object of objects) readers.observe({ type: 'added', object });
    return readers;
  }

  it.each([
    ['a Secret two workloads of its namespace name', { namespace: 'prod', name: 'zk-users' }, ['prod/zk', 'prod/sasl']],
    ['a Secret one workload names', { namespace: 'prod', name: 'zk-client-ca' }, ['prod/zk']],
    ['the same name in another namespace', { namespace: 'staging', name: 'zk-client-ca' }, []],
    ['a Secret no workload names', { namespace: 'prod', name: 'helm.release.v1' }, []],
  ])('maps %s to the workloads that read it', (_case, key, expected) => {
    expect(readersOf(following(workloads), key.namespace, key.name)).toEqual(expected);
  });

  it('follows a workload that names another Secret, and one deleted', () => {
    const readers = following(workloads);
    const old = workloads[1] as KubeObject;
    const renamed = workload('prod', 'sasl', { authentication: { sasl: { usersSecretRef: { name: 'zk-users-2' } } } });
    readers.observe({ type: 'updated', object: renamed, old });
    expect(readersOf(readers, 'prod', 'zk-users')).toEqual(['prod/zk']);
    expect(readersOf(readers, 'prod', 'zk-users-2')).toEqual(['prod/sasl']);
    readers.observe({ type: 'deleted', object: renamed });
    expect(readersOf(readers, 'prod', 'zk-users-2')).toEqual([]);
    readers.observe({ type: 'deleted', object: fullWorkload() });
    expect(readersOf(readers, 'prod', 'zk-users')).toEqual([]);
  });
});
