// The apply stages against a fake apiserver whose writes answer only when the test lets them: a new workload's
// StatefulSet is written alone first when no other reconcile is pending, else with its ConfigMap and Services, while an
// existing one, or one whose ConfigMap changes, waits until the ConfigMap is stored. And the render is made only when a
// live child does not carry its known hash.
import { derivedNames } from '@zk-oam/apis';
import { formatKey, keyOf, kubeObjectSchema, type KubeClient, type KubeObject, type Lister } from '@zk-oam/runtime';
import { describe, expect, it } from 'vitest';
import { minimalWorkload } from '../render/test-workloads.js';
import type { RenderedWorkload } from '../render/render.js';
import { noteSentences } from './action-notes.js';
import { applyChildren, recordActions, type ChildAction } from './apply-children.js';
import { stampAppliedHash } from './applied-hash.js';
import { RenderedHashes } from './rendered-hashes.js';
import { APPLIED_HASH_ANNOTATION } from './resources.js';
import { workloadNames } from '../render/identity.js';
import { childrenRender, decideRenderInput, type ChildrenRender } from './render-decisions.js';

const workload = minimalWorkload();
const AMONG_OTHERS = { monitoringServed: false, othersPending: true };
const ALONE = { monitoringServed: false, othersPending: false };
const names = derivedNames(workload.metadata.name);

/** The render of `workload` at creation, counting how often it is made. */
function counted(subject = workload): ChildrenRender & { readonly made: () => number } {
  const decision = decideRenderInput({ workload: subject, statefulSet: undefined, monitoringServed: false, tls: undefined, saslRevision: undefined, clientCaDigest: undefined });
  const render = childrenRender(decision.input, undefined);
  let made = 0;
  let children: RenderedWorkload | undefined;
  return { key: render.key, rendered: () => (children ??= ((made += 1), render.rendered())), made: () => made };
}

function rendered(): RenderedWorkload {
  return counted().rendered();
}

/** What the cache holds of a child: the applied object (its applied hash included) as stored. */
function cached<T extends Parameters<typeof stampAppliedHash>[0]>(object: T): KubeObject {
  return kubeObjectSchema.parse(stampAppliedHash(object).object);
}

/** The caches of a cluster holding every child of `children` as applied. */
function all(children: RenderedWorkload): { configMap: KubeObject; statefulSet: KubeObject; services: KubeObject[]; podDisruptionBudget: KubeObject } {
  return {
    configMap: cached(children.configMap),
    statefulSet: cached(children.statefulSet),
    services: [cached(children.headlessService), cached(children.clientService)],
    podDisruptionBudget: cached(children.podDisruptionBudget),
  };
}

/**
 * A cluster whose caches hold `live` (by kind) and whose writes wait until `answerAll()`; `started` lists the kinds
 * written so far. A write answers with the object it sent, as the API server stores an apply.
 */
function gatedCluster(live: { configMap?: KubeObject; statefulSet?: KubeObject; services?: KubeObject[]; podDisruptionBudget?: KubeObject }): { deps: Parameters<typeof applyChildren>[0]; started: string[]; answerAll: () => void } {
  const started: string[] = [];
  let waiting: Array<() => void> = [];
  const client: Pick<KubeClient, 'request'> = {
    request: (_method, path, options) => {
      started.push(/\/(configmaps|services|poddisruptionbudgets|statefulsets)\//.exec(path)?.[1] ?? path);
      return new Promise((resolve) => waiting.push(() => resolve(options?.body ?? {})));
    },
  };
  // Read at each get, so that a test can replace a live object as an informer does.
  const lister = (objects: () => (KubeObject | undefined)[]): Lister<KubeObject> => ({ get: ({ name }) => objects().find((object) => object?.metadata.name === name), list: () => [] });
  const empty = lister(() => []);
  const caches = {
    workloads: empty,
    statefulSets: lister(() => [live.statefulSet]),
    configMaps: lister(() => [live.configMap]),
    services: lister(() => live.services ?? []),
    podDisruptionBudgets: lister(() => [live.podDisruptionBudget]),
    secrets: empty,
    secretMetadata: empty,
    pods: empty,
  };
  const answerAll = (): void => {
    const now = waiting;
    waiting = [];
    now.forEach((answer) => answer());
  };
  return { deps: { client, caches, renderedHashes: new RenderedHashes() }, started, answerAll };
}

/** Lets every write made so far answer, until the apply is done, and returns the kinds written each time, in order. */
async function stagesOf(cluster: ReturnType<typeof gatedCluster>, done: Promise<unknown>): Promise<string[][]> {
  const stages: string[][] = [];
  let settled = false;
  void done.then(() => (settled = true));
  while (!settled) {
    await new Promise((resolve) => setImmediate(resolve));
    if (settled) break;
    stages.push(cluster.started.splice(0));
    cluster.answerAll();
  }
  return stages;
}

describe('applyChildren', () => {
  it("writes a new workload's StatefulSet alone, then its ConfigMap, Services and budget, when no other reconcile is pending", async () => {
    const cluster = gatedCluster({});
    const applying = applyChildren(cluster.deps, workload, counted(), ALONE);
    expect(await stagesOf(cluster, applying)).toEqual([['statefulsets'], ['configmaps', 'services', 'services', 'poddisruptionbudgets']]);
    expect((await applying).statefulSet).toMatchObject({ metadata: { name: names.statefulSet } });
  });

  it('holds an existing StatefulSet back until the first stage is stored, even when no other reconcile is pending', async () => {
    const cluster = gatedCluster({ statefulSet: cached({ ...rendered().statefulSet, spec: { replicas: 5 } }) });
    const applying = applyChildren(cluster.deps, workload, counted(), ALONE);
    expect(await stagesOf(cluster, applying)).toEqual([['configmaps', 'services', 'services', 'poddisruptionbudgets'], ['statefulsets']]);
  });

  it("writes a new workload's StatefulSet first, with its ConfigMap, Services and budget, among other reconciles: one round trip", async () => {
    const cluster = gatedCluster({});
    const applying = applyChildren(cluster.deps, workload, counted(), AMONG_OTHERS);
    expect(await stagesOf(cluster, applying)).toEqual([['statefulsets', 'configmaps', 'services', 'services', 'poddisruptionbudgets']]);
    expect((await applying).actions.map((action) => action.note)).toContain(`Created StatefulSet ${names.statefulSet}`);
  });

  it("gives the StatefulSet as the API server stored it when it applied it, none when it did not", async () => {
    const creating = gatedCluster({});
    const created = applyChildren(creating.deps, workload, counted(), AMONG_OTHERS);
    await stagesOf(creating, created);
    expect((await created).statefulSet).toMatchObject({ metadata: { name: names.statefulSet }, spec: { replicas: 3 } });
    const live = all(rendered());
    const unchanged = gatedCluster({ ...live, configMap: { ...live.configMap, metadata: { ...live.configMap.metadata, annotations: { [APPLIED_HASH_ANNOTATION]: 'changed by hand' } } } });
    const applying = applyChildren(unchanged.deps, workload, counted(), AMONG_OTHERS);
    await stagesOf(unchanged, applying);
    expect((await applying).statefulSet).toBeUndefined();
  });

  it('creates a missing StatefulSet with the first stage when the ConfigMap is already what the render says', async () => {
    const cluster = gatedCluster({ configMap: cached(rendered().configMap) });
    const applying = applyChildren(cluster.deps, workload, counted(), AMONG_OTHERS);
    expect(await stagesOf(cluster, applying)).toEqual([['statefulsets', 'services', 'services', 'poddisruptionbudgets']]);
  });

  it('holds a missing StatefulSet back until a ConfigMap that changes is stored', async () => {
    const stale = cached({ ...rendered().configMap, data: { 'zoo.cfg': 'old' } });
    const cluster = gatedCluster({ configMap: stale });
    const applying = applyChildren(cluster.deps, workload, counted(), AMONG_OTHERS);
    expect(await stagesOf(cluster, applying)).toEqual([['configmaps', 'services', 'services', 'poddisruptionbudgets'], ['statefulsets']]);
  });

  it('holds an existing StatefulSet back until the ConfigMap and Services are stored', async () => {
    const live = cached({ ...rendered().statefulSet, spec: { replicas: 5 } });
    const cluster = gatedCluster({ statefulSet: live });
    const applying = applyChildren(cluster.deps, workload, counted(), AMONG_OTHERS);
    expect(await stagesOf(cluster, applying)).toEqual([['configmaps', 'services', 'services', 'poddisruptionbudgets'], ['statefulsets']]);
  });
});

describe('applyChildren and the render', () => {
  it('names each child as the workload names it, so that its live self is read before any render', () => {
    const children = rendered();
    const names = workloadNames(workload);
    for (const resource of ['configMap', 'headlessService', 'clientService', 'statefulSet', 'podDisruptionBudget'] as const) {
      expect(children[resource].metadata).toMatchObject({ name: names[resource], namespace: names.namespace });
    }
  });

  it('renders once per reconcile, and not at all once every live child carries the hash this input gave', async () => {
    const cluster = gatedCluster(all(rendered()));
    const first = counted();
    expect((await applyChildren(cluster.deps, workload, first, AMONG_OTHERS)).actions).toEqual([]);
    expect(first.made()).toBe(1);
    const again = counted();
    expect((await applyChildren(cluster.deps, workload, again, AMONG_OTHERS)).actions).toEqual([]);
    expect(again.made()).toBe(0);
    expect(cluster.started).toEqual([]);
  });

  it('renders again for a changed spec or another input, not for a new version that changed the status only', async () => {
    const cluster = gatedCluster(all(rendered()));
    await applyChildren(cluster.deps, workload, counted(), AMONG_OTHERS);
    const statusWritten = counted({ ...workload, metadata: { ...workload.metadata, resourceVersion: '2' }, status: { phase: 'Pending' } });
    await applyChildren(cluster.deps, workload, statusWritten, AMONG_OTHERS);
    expect(statusWritten.made()).toBe(0);
    const resized = counted({ ...workload, spec: { ...workload.spec, resources: { requests: { cpu: '2' } } } });
    const resizing = applyChildren(cluster.deps, workload, resized, AMONG_OTHERS);
    await new Promise((resolve) => setImmediate(resolve));
    cluster.answerAll();
    await resizing;
    expect(resized.made()).toBe(1);
    const otherInput = counted();
    await applyChildren(cluster.deps, workload, { ...otherInput, key: `${otherInput.key} and a SASL revision` }, AMONG_OTHERS);
    expect(otherInput.made()).toBe(1);
  });

  it('forgets a workload found gone, so that one made again under its name is rendered', async () => {
    const cluster = gatedCluster(all(rendered()));
    await applyChildren(cluster.deps, workload, counted(), AMONG_OTHERS);
    cluster.deps.renderedHashes.forget(formatKey(keyOf(workload)));
    const remade = counted();
    await applyChildren(cluster.deps, workload, remade, AMONG_OTHERS);
    expect(remade.made()).toBe(1);
  });

  it('writes a live child changed by someone else again, though its render input is the same', async () => {
    const live = all(rendered());
    const cluster = gatedCluster(live);
    await applyChildren(cluster.deps, workload, counted(), AMONG_OTHERS);
    live.configMap = { ...live.configMap, metadata: { ...live.configMap.metadata, annotations: { [APPLIED_HASH_ANNOTATION]: 'changed by hand' } } };
    const afterEdit = counted();
    const applying = applyChildren(cluster.deps, workload, afterEdit, AMONG_OTHERS);
    await new Promise((resolve) => setImmediate(resolve));
    expect(cluster.started).toEqual(['configmaps']);
    cluster.answerAll();
    expect((await applying).actions.map((action) => action.note)).toEqual([`Updated ConfigMap ${names.configMap}`]);
    expect(afterEdit.made()).toBe(1);
  });
});

describe('recordActions', () => {
  it('records one Event per verb, naming every child in the order written', async () => {
    const recorded: Array<{ reason: string; action: string; note: string }> = [];
    const recorder = { record: (_regarding: KubeObject, { reason, action, note }: { reason: string; action: string; note: string }) => Promise.resolve(void recorded.push({ reason, action, note })) };
    const action = (verb: ChildAction['verb'], kind: string, name: string, detail = ''): ChildAction => ({ verb, kind, name, note: `${verb} ${kind} ${name}${detail}` });
    await recordActions({ recorder }, workload, [
      action('Created', 'ConfigMap', 'zk-config'),
      action('Updated', 'StatefulSet', 'zk', ' (replicas 3 -> 5)'),
      action('Created', 'Service', 'zk-client'),
    ]);
    expect(recorded).toEqual([
      { reason: 'Created', action: 'Create', note: 'Created ConfigMap zk-config; Created Service zk-client' },
      { reason: 'Updated', action: 'Update', note: 'Updated StatefulSet zk (replicas 3 -> 5)' },
    ]);
    expect(recorded.flatMap((event) => noteSentences(event.note))).toEqual(['Created ConfigMap zk-config', 'Created Service zk-client', 'Updated StatefulSet zk (replicas 3 -> 5)']);
  });

  it('records nothing when nothing was written', async () => {
    const recorded: unknown[] = [];
    await recordActions({ recorder: { record: (_regarding: KubeObject, details: unknown) => Promise.resolve(void recorded.push(details)) } }, workload, []);
    expect(recorded).toEqual([]);
  });
});
