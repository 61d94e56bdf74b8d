// The appconfig reconcile, a named pipeline: read -> discover kinds -> render (pure) -> apply -> tell scopes -> prune
// -> report. Every step re-reads state and is idempotent; what was rendered, and which scopes its workloads are in, is
// recorded in status, which drives pruning and leaving scopes (also when the ApplicationConfiguration is deleted).
import { done, requeueAfter, storedStatus, writeStatusIfChanged, type KubeObject, type ObjectKey, type ReconcileContext, type ReconcileResult, type Reconciler } from '@zk-oam/runtime';
import { controllerOwner } from '../render/identity.js';
import type { RenderedComponent, RenderedObject } from '../render/outcome.js';
import { renderApplication } from '../render/render.js';
import { applyRendered } from './apply-rendered.js';
import type { AppConfigReconcilerDependencies } from './dependencies.js';
import { inStep } from './errors.js';
import { historyCandidates, observeHistory } from './history.js';
import { readSources } from './read-live.js';
import { pruneStale } from './prune.js';
import { apiVersionsUsed, componentsIn, definitions, readAppConfig, statusApiVersions } from './observe.js';
import { addScopeFinalizerIfNeeded, holdsScopeFinalizer, releaseScopeFinalizerIfUnneeded, setScopeFinalizer } from './scope-finalizer.js';
import { departedEntries, leaveScopes, scopeEntries, tellScopes } from './scopes.js';
import { resolveDependencies, sourcesToRead } from '../dependencies/resolve.js';
import { revisionComponents } from '../revisions/index.js';
import { refKey } from './refs.js';
import { recordChanges, recordProblems } from './announce.js';
import { APP_CONFIG_STATUS } from './resources.js';
import { nextStatus, referencedObjects, withSynced, type ApplicationConfigurationStatus, type Problem } from './status.js';

export function appConfigReconciler(deps: AppConfigReconcilerDependencies): Reconciler {
  return (key, context) => reconcileAppConfig(deps, key, context);
}

export async function reconcileAppConfig(deps: AppConfigReconcilerDependencies, key: ObjectKey, context: ReconcileContext): Promise<ReconcileResult> {
  const reading = readAppConfig(deps.caches, key);
  if (reading.kind === 'absent') return done;
  if (reading.kind === 'deleting') return finalizeScopes(deps, key, reading.raw, context);
  if (reading.kind === 'invalid') {
    context.log.warn({ problems: reading.error.problems }, 'ApplicationConfiguration does not validate; reported, waiting for a spec change');
    await reportInvalid(deps, key, reading.raw, reading.error.message);
    return done;
  }
  const { raw, appConfig } = reading;
  const components = componentsIn(deps.caches, key.namespace);
  const pinned = appConfig.spec.components.flatMap((entry) => entry.revisionName ?? []);
  const revisions = revisionComponents(deps.caches.revisions, key.namespace, pinned);
  const resources = await inStep('Discover', key, () => deps.discovery.resources(apiVersionsUsed(appConfig, components, revisions)));
  const template = renderApplication({ appConfig, components, revisions, catalog: { ...definitions(deps.caches), resources } });
  const sources = await inStep('Apply', key, () => readSources(deps.client, sourcesToRead(appConfig, template), key.namespace));
  const { rendered, held, unsatisfied } = resolveDependencies(appConfig, template, sources);
  const ownerUid = controllerOwner(appConfig).uid;
  const ready = renderedObjects(rendered).filter((object) => !held.has(refKey(object.ref)));
  const stored = appConfig.status;
  await inStep('Apply', key, () => addScopeFinalizerIfNeeded(deps.client, raw, appConfig, stored));
  const applied = await inStep('Apply', key, () => applyRendered(deps.client, ready, ownerUid));
  const appliedByRef = new Map(applied.map(({ ref, result }) => [refKey(ref), result] as const));
  const told = await inStep('Apply', key, () => tellScopes(deps.client, rendered, appliedByRef, key.namespace));
  const history = await inStep('Apply', key, () => observeHistory(deps.client, historyCandidates(rendered, stored), key.namespace, resources));
  const { status, problems } = nextStatus({
    rendered,
    applied: appliedByRef,
    scopes: told,
    previous: stored,
    history,
    unsatisfied,
    generation: appConfig.metadata.generation,
    now: deps.now(),
  });
  const catalog = { resources, scopeDefinitions: definitions(deps.caches).scopeDefinitions };
  const left = await inStep('Prune', key, () => leaveScopes(deps.client, departedEntries(scopeEntries(stored), scopeEntries(status)), catalog, key.namespace));
  const deleted = await inStep('Prune', key, () =>
    pruneStale(deps.client, { previous: referencedObjects(stored), next: referencedObjects(status), namespace: key.namespace, ownerUid, resources }),
  );
  const written = await inStep('ReportStatus', key, () => writeStatusIfChanged(deps.client, APP_CONFIG_STATUS, key, stored, status));
  await inStep('Apply', key, () => releaseScopeFinalizerIfUnneeded(deps.client, raw, appConfig, status));
  const notes = await recordChanges(deps, raw, applied, deleted);
  await recordProblems(deps, raw, problems, stored, status);
  if (notes.length > 0) context.log.info({ actions: notes }, 'applied the ApplicationConfiguration');
  if (left.length > 0) context.log.info({ left }, 'removed workloads from scopes they left');
  // A problem is logged at warn when first reported; every retry until it is fixed only at debug.
  if (problems.length > 0) context.log[written ? 'warn' : 'debug']({ problems }, 'ApplicationConfiguration not fully applied; reported');
  else if (written) context.log.debug('status written');
  if (unsatisfied.length > 0) context.log.debug({ unsatisfied }, 'objects held back until their data inputs are ready');
  if (problems.length > 0) return requeueAfter(deps.periods.waitMs);
  return requeueAfter(unsatisfied.length > 0 ? deps.periods.dependencyCheckMs : deps.periods.idleMs);
}

/** Deleting: removes every workload the status records from its scopes, then releases the ApplicationConfiguration. */
async function finalizeScopes(deps: AppConfigReconcilerDependencies, key: ObjectKey, raw: KubeObject, context: ReconcileContext): Promise<ReconcileResult> {
  if (!holdsScopeFinalizer(raw)) return done;
  const stored = storedStatus(APP_CONFIG_STATUS.schema, raw);
  await inStep('Finalize', key, async () => {
    const resources = await deps.discovery.resources(statusApiVersions(stored));
    const left = await leaveScopes(deps.client, scopeEntries(stored), { resources, scopeDefinitions: definitions(deps.caches).scopeDefinitions }, key.namespace);
    await setScopeFinalizer(deps.client, raw, false);
    context.log.info({ left }, 'removed the workloads from their scopes; the ApplicationConfiguration may go');
  });
  return done;
}

function renderedObjects(components: readonly RenderedComponent[]): RenderedObject[] {
  return components.flatMap((component) => [component.workload, ...component.traits]).filter((outcome) => outcome.kind === 'rendered');
}

/** Synced=False/InvalidSpec with a Warning Event when that is news; nothing is applied or pruned, the references kept. */
async function reportInvalid(deps: AppConfigReconcilerDependencies, key: ObjectKey, raw: KubeObject, message: string): Promise<void> {
  const stored = storedStatus(APP_CONFIG_STATUS.schema, raw);
  const problem: Problem = { reason: 'InvalidSpec', message: message.slice(0, 4096) };
  const failed: ApplicationConfigurationStatus = { ...stored, ...withSynced([problem], { previous: stored, generation: raw.metadata.generation, now: deps.now() }) };
  await writeStatusIfChanged(deps.client, APP_CONFIG_STATUS, key, stored, failed);
  await recordProblems(deps, raw, [problem], stored, failed);
}
