// The Secrets step against a fake apiserver that answers only when the test lets it: a new workload's generated
// superuser Secret does not hold the render back (its creation is settled after the apply), while a Secret the spec
// names is checked before anything is rendered.
import { createLogger, KubeApiError, type KubeObject } from '@zk-oam/runtime';
import { describe, expect, it } from 'vitest';
import { minimalWorkload, withSpec } from '../render/test-workloads.js';
import { ensureMemberSecrets, settleSuperuserSecret } from './member-secrets.js';
import { gatedClient } from './test-gated-client.js';

const log = createLogger({ name: 'test', level: 'silent' });

/** A cluster with no Secret: a GET of one is a 404, any other request succeeds, each when the test lets it. */
function gatedDeps() {
  const apiserver = gatedClient((verb, path) => {
    if (verb === 'GET') throw new KubeApiError(404, 'NotFound', verb, path, 'not found');
    return {};
  });
  const warnings: string[] = [];
  const none = { get: () => undefined, list: (): KubeObject[] => [] };
  const deps = {
    client: apiserver.client,
    caches: { workloads: none, statefulSets: none, configMaps: none, services: none, podDisruptionBudgets: none, secrets: none, pods: none },
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
});
