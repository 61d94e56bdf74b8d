// Step 4: server-side apply of each rendered child whose hash differs from the live one's; an Event per action follows.
// A child whose applied-hash matches is not written at all: a steady ensemble costs the apiserver no writes.
import type { V1ObjectMeta } from '@kubernetes/client-node';
import type { ZookeeperWorkload } from '@zk-oam/apis';
import { applyObject, isApiError, objectPath, type KubeClient, type KubeObject, type ObjectKey, type ResourceType } from '@zk-oam/runtime';
import { z } from 'zod';
import { workloadNames, type WorkloadNames } from '../render/identity.js';
import { CONFIG_FILES } from '../render/layout.js';
import type { RenderedResource, RenderedWorkload } from '../render/render.js';
import { liveAppliedHash, stampAppliedHash } from './applied-hash.js';
import type { WorkloadCaches, WorkloadReconcilerDependencies } from './dependencies.js';
import { childResources, IDENTITY, prometheusRuleResource, serviceMonitorResource } from './resources.js';

export interface ChildKind {
  readonly resource: ResourceType;
  /** Where the live object is read: an informer cache, or the API (kinds that may not exist in the cluster). */
  readonly cache: keyof WorkloadCaches | 'api';
}

const CHILD_KINDS = {
  configMap: { resource: childResources.configMap, cache: 'configMaps' },
  headlessService: { resource: childResources.service, cache: 'services' },
  clientService: { resource: childResources.service, cache: 'services' },
  podDisruptionBudget: { resource: childResources.podDisruptionBudget, cache: 'podDisruptionBudgets' },
  statefulSet: { resource: childResources.statefulSet, cache: 'statefulSets' },
  serviceMonitor: { resource: serviceMonitorResource, cache: 'api' },
  prometheusRule: { resource: prometheusRuleResource, cache: 'api' },
} as const satisfies Record<RenderedResource, ChildKind>;

/**
 * The ConfigMap and Services exist before the StatefulSet whose pods mount and resolve them. The children of one
 * stage do not depend on each other and are applied together.
 */
const APPLY_STAGES = [
  ['configMap', 'headlessService', 'clientService', 'podDisruptionBudget'],
  ['statefulSet'],
  ['serviceMonitor', 'prometheusRule'],
] as const satisfies readonly (readonly RenderedResource[])[];

type Deps = Pick<WorkloadReconcilerDependencies, 'caches'> & { readonly client: Pick<KubeClient, 'request'> };

export interface ChildAction {
  readonly verb: 'Created' | 'Updated' | 'Deleted';
  readonly kind: string;
  readonly name: string;
  readonly note: string;
}

const liveSchema = z.looseObject({
  metadata: z.looseObject({
    name: z.string(),
    annotations: z.record(z.string(), z.string()).optional(),
    ownerReferences: z.array(z.looseObject({ uid: z.string(), controller: z.boolean().optional() })).optional(),
  }),
  data: z.record(z.string(), z.string()).optional(),
  spec: z.looseObject({ replicas: z.int().optional() }).optional(),
});
type Live = z.infer<typeof liveSchema>;

async function readLive(deps: Deps, kind: ChildKind, key: ObjectKey): Promise<Live | undefined> {
  let object: unknown;
  if (kind.cache === 'api') {
    try {
      object = await deps.client.request('GET', objectPath(kind.resource, key));
    } catch (error) {
      if (isApiError(error, 404)) return undefined;
      throw error;
    }
  } else {
    object = deps.caches[kind.cache].get(key);
  }
  return object === undefined ? undefined : liveSchema.parse(object);
}

interface Desired {
  readonly metadata?: V1ObjectMeta | undefined;
  readonly data?: Record<string, string> | undefined;
  readonly spec?: unknown;
}

function replicasOf(spec: unknown): number | undefined {
  return z.looseObject({ replicas: z.int().optional() }).safeParse(spec).data?.replicas;
}

/** What a person wants to know about an update beyond "it changed". */
function updateDetail(resource: RenderedResource, desired: Desired, live: Live): string {
  if (resource === 'configMap' && desired.data?.[CONFIG_FILES.zooCfg] !== live.data?.[CONFIG_FILES.zooCfg]) {
    return ' (zoo.cfg changed: pods will roll)';
  }
  if (resource === 'statefulSet') {
    const from = live.spec?.replicas;
    const to = replicasOf(desired.spec);
    if (from !== undefined && to !== undefined && from !== to) return ` (replicas ${from} -> ${to})`;
  }
  return '';
}

function isControlledBy(live: Live, workload: ZookeeperWorkload): boolean {
  return (live.metadata.ownerReferences ?? []).some((owner) => owner.controller === true && owner.uid === workload.metadata.uid);
}

function applyOne(deps: Deps, resource: RenderedResource, desired: Desired, workload: ZookeeperWorkload): Promise<ChildAction | undefined> {
  const namespace = desired.metadata?.namespace ?? workload.metadata.namespace ?? '';
  return applyIfChanged(deps, CHILD_KINDS[resource], desired, namespace, (live) => updateDetail(resource, desired, live));
}

/** Applies one object unless its applied-hash says the live one is what was rendered; says what it did. */
export async function applyIfChanged(
  deps: Deps,
  kind: ChildKind,
  desired: Desired,
  namespace: string,
  detailOf: (live: Live) => string = () => '',
): Promise<ChildAction | undefined> {
  const name = desired.metadata?.name;
  if (name === undefined) throw new Error(`rendered ${kind.resource.kind} has no name`);
  const key = { namespace, name };
  const live = await readLive(deps, kind, key);
  const { object, hash } = stampAppliedHash(desired);
  if (live !== undefined && liveAppliedHash(live) === hash) return undefined;
  await applyObject(deps.client, kind.resource, { ...object, metadata: { ...object.metadata, name, namespace } }, { fieldManager: IDENTITY.fieldManager });
  const verb = live === undefined ? 'Created' : 'Updated';
  const detail = live === undefined ? '' : detailOf(live);
  return { verb, kind: kind.resource.kind, name, note: `${verb} ${kind.resource.kind} ${name}${detail}` };
}

async function deleteIfOwned(deps: Deps, resource: RenderedResource, name: string, workload: ZookeeperWorkload): Promise<ChildAction | undefined> {
  const kind: ChildKind = CHILD_KINDS[resource];
  const key = { namespace: workload.metadata.namespace ?? '', name };
  const live = await readLive(deps, kind, key);
  if (live === undefined || !isControlledBy(live, workload)) return undefined;
  await deps.client.request('DELETE', objectPath(kind.resource, key));
  return { verb: 'Deleted', kind: kind.resource.kind, name, note: `Deleted ${kind.resource.kind} ${name} (metrics or monitoring CRDs gone)` };
}

/**
 * Applies what changed, stage by stage, and returns what it did. Monitoring children are only looked at when their API
 * is served; absent from the render then means "delete the one this workload made".
 */
export async function applyChildren(deps: Deps, workload: ZookeeperWorkload, rendered: RenderedWorkload, monitoringServed: boolean): Promise<ChildAction[]> {
  const actions: ChildAction[] = [];
  const context = { monitoringServed, names: workloadNames(workload) };
  for (const stage of APPLY_STAGES) {
    const done = await Promise.all(stage.map((resource: RenderedResource) => applyOrPrune(deps, resource, rendered, workload, context)));
    actions.push(...done.filter((action) => action !== undefined));
  }
  return actions;
}

/** One Normal Event per action, recorded after all the writes so that Events never delay the StatefulSet. */
export async function recordActions(deps: Pick<WorkloadReconcilerDependencies, 'recorder'>, raw: KubeObject, actions: readonly ChildAction[]): Promise<void> {
  await Promise.all(
    actions.map((action) => deps.recorder.record(raw, { type: 'Normal', reason: action.verb, action: action.verb.replace(/d$/, ''), note: action.note })),
  );
}

async function applyOrPrune(
  deps: Deps,
  resource: RenderedResource,
  rendered: RenderedWorkload,
  workload: ZookeeperWorkload,
  context: { monitoringServed: boolean; names: Pick<WorkloadNames, 'serviceMonitor' | 'prometheusRule'> },
): Promise<ChildAction | undefined> {
  const desired: Desired | undefined = rendered[resource];
  const monitoring = resource === 'serviceMonitor' || resource === 'prometheusRule';
  if (monitoring && !context.monitoringServed) return undefined;
  if (desired !== undefined) return applyOne(deps, resource, desired, workload);
  return monitoring ? deleteIfOwned(deps, resource, context.names[resource], workload) : undefined;
}
