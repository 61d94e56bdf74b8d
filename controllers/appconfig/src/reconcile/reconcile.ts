// The appconfig reconcile, a named pipeline: read -> discover kinds -> render (pure) -> apply -> prune -> report.
// Every step re-reads state and is idempotent; what was rendered is recorded in status, which drives pruning.
import { done, requeueAfter, type KubeObject, type ObjectKey, type ReconcileContext, type ReconcileResult, type Reconciler } from '@zk-oam/runtime';
import { controllerOwner } from '../render/identity.js';
import type { RenderedComponent, RenderedObject } from '../render/outcome.js';
import { renderApplication } from '../render/render.js';
import { applyRendered } from './apply-rendered.js';
import type { AppConfigReconcilerDependencies } from './dependencies.js';
import { inStep } from './errors.js';
import { historyCandidates, observeHistory } from './history.js';
import { readSources } from './read-live.js';
import { pruneStale } from './prune.js';
import { apiVersionsUsed, componentsIn, definitions, readAppConfig, storedStatus } from './read-inputs.js';
import { resolveDependencies, sourcesToRead } from '../dependencies/resolve.js';
import { revisionComponents } from '../revisions/index.js';
import { refKey } from './refs.js';
import { recordChanges, recordProblems, writeStatus } from './report.js';
import { nextStatus, referencedObjects, withSynced, type ApplicationConfigurationStatus, type Problem } from './status.js';

export function appConfigReconciler(deps: AppConfigReconcilerDependencies): Reconciler {
  return (key, context) => reconcileAppConfig(deps, key, context);
}

export async function reconcileAppConfig(deps: AppConfigReconcilerDependencies, key: ObjectKey, context: ReconcileContext): Promise<ReconcileResult> {
  const reading = readAppConfig(deps.caches, key);
  if (reading.kind === 'absent' || reading.kind === 'deleting') return done;
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
  const applied = await inStep('Apply', key, () => applyRendered(deps.client, ready, ownerUid));
  const stored = appConfig.status;
  const history = await inStep('Apply', key, () => observeHistory(deps.client, historyCandidates(rendered, stored), key.namespace, resources));
  const { status, problems } = nextStatus({
    rendered,
    applied: new Map(applied.map(({ ref, result }) => [refKey(ref), result] as const)),
    previous: stored,
    history,
    unsatisfied,
    generation: appConfig.metadata.generation,
    now: deps.now(),
  });
  const deleted = await inStep('Prune', key, () =>
    pruneStale(deps.client, { previous: referencedObjects(stored), next: referencedObjects(status), namespace: key.namespace, ownerUid, resources }),
  );
  const written = await inStep('ReportStatus', key, () => writeStatus(deps, key, stored, status));
  const notes = await recordChanges(deps, raw, applied, deleted);
  await recordProblems(deps, raw, problems, stored, status);
  if (notes.length > 0) context.log.info({ actions: notes }, 'applied the ApplicationConfiguration');
  // A problem is logged at warn when first reported; every retry until it is fixed only at debug.
  if (problems.length > 0) context.log[written ? 'warn' : 'debug']({ problems }, 'ApplicationConfiguration not fully applied; reported');
  else if (written) context.log.debug('status written');
  if (unsatisfied.length > 0) context.log.debug({ unsatisfied }, 'objects held back until their data inputs are ready');
  if (problems.length > 0) return requeueAfter(deps.periods.retryMs);
  return requeueAfter(unsatisfied.length > 0 ? deps.periods.dependencyCheckMs : deps.periods.resyncMs);
}

function renderedObjects(components: readonly RenderedComponent[]): RenderedObject[] {
  return components.flatMap((component) => [component.workload, ...component.traits]).filter((outcome) => outcome.kind === 'rendered');
}

/** Synced=False/InvalidSpec with a Warning Event when that is news; nothing is applied or pruned, the references kept. */
async function reportInvalid(deps: AppConfigReconcilerDependencies, key: ObjectKey, raw: KubeObject, message: string): Promise<void> {
  const stored = storedStatus(raw);
  const problem: Problem = { reason: 'InvalidSpec', message: message.slice(0, 4096) };
  const failed: ApplicationConfigurationStatus = { ...stored, ...withSynced([problem], { previous: stored, generation: raw.metadata.generation, now: deps.now() }) };
  await writeStatus(deps, key, stored, failed);
  await recordProblems(deps, raw, [problem], stored, failed);
}
