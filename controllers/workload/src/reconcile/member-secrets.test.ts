// The Secrets step against a fake apiserver that answers only when the test lets it: a new workload's generated
// superuser Secret does not hold the render back (its creation is settled after the apply), while a Secret the spec
// names is checked before anything is rendered.
import { createLogger, KubeApiError, type KubeObject } from '@zk-oam/runtime';
import { describe, expect, it } from 'vitest';
import { minimalWorkload, withSpec } from '../render/test-workloads.js';
import { ensureMemberSecrets, settleSuperuserSecret } from './member-secrets.js';
import { gatedClient } from './test-gated-client.js';

const log = createLogger({ name: 'test', level: 'silent' });

/**
 * A cluster with no Secret but `squatted`, there without the superuser keys: a GET finds it or is a 404, creating it is
 * a 409, any other request succeeds, each when the test lets it. The metadata cache knows `squatted`.
 */
function gatedDeps(squatted?: string) {
  const squattedPath = `/api/v1/namespaces/prod/secrets/${squatted ?? ''}`;
  const apiserver = gatedClient((verb, path) => {
    if (verb === 'GET' && path === squattedPath) return { metadata: { name: squatted }, data: {} };
    if (verb === 'GET') throw new KubeApiError(404, 'NotFound', verb, path, 'not found');
    if (verb === 'POST' && squatted !== undefined) throw new KubeApiError(409, 'AlreadyExists', verb, path, 'already exists');
    return {};
  });
  const warnings: string[] = [];
  const none = { get: () => undefined, list: (): KubeObject[] => [] };
  const secretMetadata = { get: ({ name }: { name: string }) => (name === squatted ? { metadata: { namespace: 'prod', name } } : undefined), list: (): KubeObject[] => [] };
  const deps = {
    client: apiserver.client,
    caches: { workloads: none, statefulSets: none, configMaps: none, services: none, podDisruptionBudgets: none, secrets: none, secretMetadata, pods: none },
    recorder: { record: (_regarding: KubeObject, details: { type: string; reason: string }) => Promise.resolve(void warnings.push(`${details.type} ${details.reason}`)) },
    now: () => new Date('2026-11-30T05:00:00Z'),
    certManagerServed: () => Promise.resolve(false),
  };
  return { deps, requests: apiserver.requests, warnings, answer: apiserver.answer };
}

describe('ensureMemberSecrets', () => {
  it("is ready while a new workload's generated superuser Secret is still being created; settled, it says it created it", async () => {
    const { deps, requests, answer } = gatedDeps();
    const workload = minimalWorkload();
    const outcome = await ensureMemberSecrets(deps, { namespace: 'prod', name: 'zk' }, { kind: 'valid', raw: workload, workload, statefulSet: undefined }, log);
    expect(outcome.kind).toBe('ready');
    expect(requests).toEqual(['POST /api/v1/namespaces/prod/secrets']);
    if (outcome.kind !== 'ready') return;
    const settling = settleSuperuserSecret(deps, workload, outcome.secrets.superuser, log);
    await answer();
    expect((await settling).actions.map((action) => action.note)).toEqual(['Created Secret zk-superuser (generated superuser password)']);
  });

  it('blocks before anything is rendered when the superuser Secret the spec names does not exist, with a Warning Event', async () => {
    const { deps, requests, warnings, answer } = gatedDeps();
    const workload = withSpec(minimalWorkload(), (spec) => ({ ...spec, superuserSecretRef: { name: 'mine' } }));
    const ensuring = ensureMemberSecrets(deps, { namespace: 'prod', name: 'zk' }, { kind: 'valid', raw: workload, workload, statefulSet: undefined }, log);
    await answer();
    expect(await ensuring).toMatchObject({ kind: 'blocked' });
    expect(requests).toEqual(['GET /api/v1/namespaces/prod/secrets/mine']);
    expect(warnings).toEqual(['Warning SuperuserSecretInvalid']);
  });

  it('blocks before anything is rendered when a Secret not made by the controller holds the generated name without its keys', async () => {
    const { deps, requests, warnings, answer } = gatedDeps('zk-superuser');
    const workload = minimalWorkload();
    const ensuring = ensureMemberSecrets(deps, { namespace: 'prod', name: 'zk' }, { kind: 'valid', raw: workload, workload, statefulSet: undefined }, log);
    await answer();
    expect(await ensuring).toMatchObject({ kind: 'blocked' });
    expect(requests).toEqual(['POST /api/v1/namespaces/prod/secrets', 'GET /api/v1/namespaces/prod/secrets/zk-superuser']);
    expect(warnings).toEqual(['Warning SuperuserSecretInvalid']);
  });
});
