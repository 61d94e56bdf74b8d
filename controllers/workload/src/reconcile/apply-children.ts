// Step 4: server-side apply of each rendered child whose hash differs from the live one's; an Event per verb follows.
// A child whose applied-hash matches is not written at all: a steady ensemble costs the apiserver no writes.
import type { V1ObjectMeta, V1StatefulSet } from '@kubernetes/client-node';
import type { ZookeeperWorkload } from '@zk-oam/apis';
import { applyObject, formatKey, isApiError, keptParse, objectPath, type KubeClient, type KubeObject, type ObjectKey, type ResourceType } from '@zk-oam/runtime';
import { z } from 'zod';
import { workloadNames } from '../render/identity.js';
import { CONFIG_FILES } from '../render/layout.js';
import type { RenderedResource } from '../render/render.js';
import { joinSentences } from './action-notes.js';
import { liveAppliedHash, stampAppliedHash } from './applied-hash.js';
import type { ChildrenRender } from './render-decisions.js';
import type { WorkloadCaches, WorkloadReconcilerDependencies } from './dependencies.js';
import { childResources, IDENTITY, prometheusRuleResource, serviceMonitorResource } from './resources.js';
import { storedStatefulSetView } from './views.js';

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
 * The stages, in order: these four, then the StatefulSet, then the monitoring children. The ConfigMap and Services
 * exist before the StatefulSet whose pods mount and resolve them: the pod template carries the ConfigMap's hash
 * (config-hash.ts), which must not be written before the ConfigMap holds what it hashes, or a pod rolled for it could
 * start with the old file. The children of one stage do not depend on each other and are applied together. A
 * StatefulSet not created yet may come first (newStatefulSetMayLead, writeStages).
 */
const FIRST_STAGE = ['configMap', 'headlessService', 'clientService', 'podDisruptionBudget'] as const satisfies readonly RenderedResource[];
const MONITORING = ['serviceMonitor', 'prometheusRule'] as const satisfies readonly RenderedResource[];

type Deps = Pick<WorkloadReconcilerDependencies, 'caches'> & { readonly client: Pick<KubeClient, 'request'> };
type ChildrenDeps = Deps & Pick<WorkloadReconcilerDependencies, 'renderedHashes'>;

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
  if (kind.cache !== 'api') {
    // A cached object is parsed once per version: a burst reconciles a workload once per event of each child.
    const cached = deps.caches[kind.cache].get(key);
    return cached === undefined ? undefined : keptParse(cached, liveSchema, () => liveSchema.parse(cached));
  }
  try {
    return liveSchema.parse(await deps.client.request('GET', objectPath(kind.resource, key)));
  } catch (error) {
    if (isApiError(error, 404)) return undefined;
    throw error;
  }
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

/** One child against its live self: the object to apply, stamped with its hash, unless the live one carries that hash. */
interface Planned {
  readonly kind: ChildKind;
  readonly key: ObjectKey;
  readonly live: Live | undefined;
  /** Undefined when the live object is what was rendered. */
  readonly changed: Desired | undefined;
  readonly detailOf: (live: Live) => string;
}

/** A child this reconcile applied: what it did, and the object as the API server stored it (the apply's answer). */
interface Written {
  readonly action: ChildAction;
  readonly stored: unknown;
}

/** Applies a planned child that changed. */
async function writeChild(deps: Deps, planned: Planned): Promise<Written | undefined> {
  const { kind, key, live, changed } = planned;
  if (changed === undefined) return undefined;
  const stored = await applyObject(deps.client, kind.resource, { ...changed, metadata: { ...changed.metadata, ...key } }, { fieldManager: IDENTITY.fieldManager });
  const verb = live === undefined ? 'Created' : 'Updated';
  const detail = live === undefined ? '' : planned.detailOf(live);
  return { action: { verb, kind: kind.resource.kind, name: key.name, note: `${verb} ${kind.resource.kind} ${key.name}${detail}` }, stored };
}

/** Applies a planned child that changed; says what it did. */
async function write(deps: Deps, planned: Planned): Promise<ChildAction | undefined> {
  return (await writeChild(deps, planned))?.action;
}

/**
 * One child of the workload's render, undefined when the render has none. A live child carrying the hash that this
 * render input was last found to give (deps.renderedHashes) is unchanged without rendering or hashing anything;
 * otherwise the render is made (once per reconcile) and its hash kept for the next reconcile.
 */
async function planChild(deps: ChildrenDeps, resource: RenderedResource, workload: ZookeeperWorkload, render: ChildrenRender): Promise<Planned | undefined> {
  const kind = CHILD_KINDS[resource];
  const { namespace, [resource]: name, workload: workloadName } = workloadNames(workload);
  const key = { namespace, name };
  const hashes = deps.renderedHashes.of(formatKey({ namespace, name: workloadName }), render.key);
  const known = hashes.get(resource);
  const detailOf = (live: Live): string => updateDetail(resource, render.rendered()[resource] ?? {}, live);
  if (known === undefined && render.rendered()[resource] === undefined) return undefined;
  const live = await readLive(deps, kind, key);
  if (known !== undefined && liveAppliedHash(live) === known) return { kind, key, live, changed: undefined, detailOf };
  const desired: Desired | undefined = render.rendered()[resource];
  if (desired === undefined) return undefined;
  const { object, hash } = stampAppliedHash(desired);
  hashes.set(resource, hash);
  return { kind, key, live, changed: liveAppliedHash(live) === hash ? undefined : object, detailOf };
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
  return write(deps, { kind, key, live, changed: liveAppliedHash(live) === hash ? undefined : object, detailOf });
}

async function deleteIfOwned(deps: Deps, resource: RenderedResource, name: string, workload: ZookeeperWorkload): Promise<ChildAction | undefined> {
  const kind: ChildKind = CHILD_KINDS[resource];
  const key = { namespace: workload.metadata.namespace ?? '', name };
  const live = await readLive(deps, kind, key);
  if (live === undefined || !isControlledBy(live, workload)) return undefined;
  await deps.client.request('DELETE', objectPath(kind.resource, key));
  return { verb: 'Deleted', kind: kind.resource.kind, name, note: `Deleted ${kind.resource.kind} ${name} (metrics or monitoring CRDs gone)` };
}

export interface ApplyConditions {
  /** Whether the monitoring API is served: only then are monitoring children applied, or pruned when not rendered. */
  readonly monitoringServed: boolean;
  /** Whether other reconciles of the controller are pending (ReconcileContext.othersPending). */
  readonly othersPending: boolean;
}

export interface AppliedChildren {
  readonly actions: ChildAction[];
  /**
   * The StatefulSet as the API server stored it (the cache's view of it), when this reconcile applied it: newer than
   * the cache, whose watch event comes later. A new workload's first status then says its StatefulSet exists, in one
   * write, not two.
   */
  readonly statefulSet: V1StatefulSet | undefined;
}

/**
 * Applies what changed, stage by stage, and returns what it did. Monitoring children are only looked at when their API
 * is served; absent from the render then means "delete the one this workload made".
 */
export async function applyChildren(deps: ChildrenDeps, workload: ZookeeperWorkload, render: ChildrenRender, how: ApplyConditions): Promise<AppliedChildren> {
  const planOf = (resource: RenderedResource): Promise<Planned | undefined> => planChild(deps, resource, workload, render);
  const first = await Promise.all(FIRST_STAGE.map(planOf));
  const statefulSet = await planOf('statefulSet');
  const stages = writeStages(statefulSet, first, how.othersPending);
  const actions: ChildAction[] = [];
  let storedStatefulSet: V1StatefulSet | undefined;
  for (const stage of stages) {
    const done = await Promise.all(stage.map(async (one) => ({ one, written: one === undefined ? undefined : await writeChild(deps, one) })));
    for (const { one, written } of done) {
      if (one === undefined || written === undefined) continue;
      actions.push(written.action);
      if (one === statefulSet) storedStatefulSet = storedStatefulSetView(written.stored, one.key.name);
    }
  }
  const pruned = how.monitoringServed ? await Promise.all(MONITORING.map((resource) => applyOrPrune(deps, resource, workload, render))) : [];
  return { actions: [...actions, ...pruned.filter((action) => action !== undefined)], statefulSet: storedStatefulSet };
}

/**
 * Whether the StatefulSet may be applied before the first stage has been stored: when it does not exist yet and the
 * ConfigMap is created with it or does not change. Its pods cannot start before the ConfigMap they mount exists, which
 * then holds what their config hash says, and the Services they resolve come within the same round trip or the next,
 * long before a pod runs. An existing StatefulSet always waits for the first stage.
 */
export function newStatefulSetMayLead(statefulSet: Pick<Planned, 'live'> | undefined, configMap: Pick<Planned, 'live' | 'changed'> | undefined): boolean {
  return statefulSet !== undefined && statefulSet.live === undefined && (configMap?.live === undefined || configMap.changed === undefined);
}

/**
 * The write stages of one reconcile. A new StatefulSet that may lead goes alone when nothing else of the controller is
 * pending: the API server serves it in about 5 ms, where beside the four others, served at the same time, it took
 * 10-14 (the audit log of `npm run bench` at one ensemble). Among other reconciles it joins the first stage instead, its
 * request leaving first: there a round trip of its own per new workload cost a burst of 100 about 10% more CPU, and
 * the server is shared anyway.
 */
export function writeStages<T extends Pick<Planned, 'live' | 'changed'>>(
  statefulSet: T | undefined,
  first: readonly (T | undefined)[],
  othersPending: boolean,
): readonly (readonly (T | undefined)[])[] {
  if (!newStatefulSetMayLead(statefulSet, first[FIRST_STAGE.indexOf('configMap')])) return [first, [statefulSet]];
  return othersPending ? [[statefulSet, ...first]] : [[statefulSet], first];
}

/**
 * One Normal Event per verb, its note naming every child the verb applies to, recorded after all the writes so that
 * Events never delay the StatefulSet. An Event per child made five for a new workload (ConfigMap, two Services, PDB,
 * StatefulSet): 500 of the 1,500 API writes after 100 workloads applied at once (`npm run bench`).
 */
export async function recordActions(deps: Pick<WorkloadReconcilerDependencies, 'recorder'>, raw: KubeObject, actions: readonly ChildAction[]): Promise<void> {
  const notesByVerb = new Map<ChildAction['verb'], string[]>();
  for (const action of actions) {
    const notes = notesByVerb.get(action.verb) ?? [];
    notes.push(action.note);
    notesByVerb.set(action.verb, notes);
  }
  await Promise.all(
    [...notesByVerb].map(([verb, notes]) => deps.recorder.record(raw, { type: 'Normal', reason: verb, action: verb.replace(/d$/, ''), note: joinSentences(notes) })),
  );
}

/** A monitoring child: applied when rendered, else the one this workload made deleted. */
async function applyOrPrune(deps: ChildrenDeps, resource: (typeof MONITORING)[number], workload: ZookeeperWorkload, render: ChildrenRender): Promise<ChildAction | undefined> {
  const planned = await planChild(deps, resource, workload, render);
  if (planned !== undefined) return write(deps, planned);
  return deleteIfOwned(deps, resource, workloadNames(workload)[resource], workload);
}
