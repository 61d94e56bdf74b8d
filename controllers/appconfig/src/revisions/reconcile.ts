// The Component revision reconcile: observe the Component and its ControllerRevisions in the caches, plan (pure),
// then create the new revision, record it in status.latestRevision and delete the excess. Each write is idempotent,
// so a run killed anywhere is finished by the next: a revision created but not recorded is found and recorded.
import { componentSchema, type Component } from '@zk-oam/apis';
import {
  applyStatus,
  collectionPath,
  done,
  formatKey,
  isApiError,
  objectPath,
  runStep,
  type KubeClient,
  type KubeObject,
  type Lister,
  type ObjectKey,
  type Reconciler,
} from '@zk-oam/runtime';
import { controllerRevisionResource, IDENTITY, oamResources } from '../reconcile/resources.js';
import { planRevisions, type RevisionPlan } from './plan.js';
import { revisionObject } from './revision-object.js';
import { pinnedRevisions, revisionsOf } from './stored.js';

export interface ComponentRevisionDependencies {
  readonly client: KubeClient;
  readonly caches: { readonly components: Lister<KubeObject>; readonly revisions: Lister<KubeObject>; readonly appConfigs: Lister<KubeObject> };
  /** Revisions kept per Component beyond the pinned ones. */
  readonly limit: number;
}

export function componentRevisionReconciler(deps: ComponentRevisionDependencies): Reconciler {
  return async (key, context) => {
    const component = componentSchema.safeParse(deps.caches.components.get(key)).data;
    if (component === undefined || component.metadata.deletionTimestamp !== undefined) return done;
    const plan = planRevisions({
      component,
      revisions: revisionsOf(deps.caches.revisions, component),
      pinned: pinnedRevisions(deps.caches.appConfigs, key.namespace),
      limit: deps.limit,
    });
    const created = await step('CreateRevision', key, () => createRevision(deps.client, component, plan));
    await step('ReportStatus', key, () => recordLatest(deps.client, key, component, plan));
    await step('DeleteRevisions', key, () => deleteRevisions(deps.client, key.namespace, plan.remove));
    if (created) context.log.info({ revision: plan.latest.name }, 'Component revision created');
    if (plan.remove.length > 0) context.log.info({ revisions: plan.remove }, 'old Component revisions deleted');
    return done;
  };
}

function step<T>(name: string, key: ObjectKey, run: () => Promise<T>): Promise<T> {
  return runStep({ step: name, object: `Component ${formatKey(key)}` }, run);
}

/** True when it wrote one. A revision of that name already there is this plan's, written by an earlier run. */
async function createRevision(client: KubeClient, component: Component, plan: RevisionPlan): Promise<boolean> {
  if (plan.create === undefined) return false;
  try {
    await client.request('POST', collectionPath(controllerRevisionResource, component.metadata.namespace ?? ''), { body: revisionObject(component, plan.create) });
    return true;
  } catch (error) {
    if (isApiError(error, 409)) return false;
    throw error;
  }
}

async function recordLatest(client: KubeClient, key: ObjectKey, component: Component, plan: RevisionPlan): Promise<void> {
  const { latestRevision, observedGeneration } = component.status ?? {};
  const generation = component.metadata.generation;
  if (latestRevision?.name === plan.latest.name && latestRevision.revision === plan.latest.revision && observedGeneration === generation) return;
  const status = { latestRevision: plan.latest, ...(generation === undefined ? {} : { observedGeneration: generation }) };
  await applyStatus(client, oamResources.component, key, status, { fieldManager: IDENTITY.fieldManager });
}

async function deleteRevisions(client: KubeClient, namespace: string, names: readonly string[]): Promise<void> {
  for (const name of names) {
    try {
      await client.request('DELETE', objectPath(controllerRevisionResource, { namespace, name }));
    } catch (error) {
      if (!isApiError(error, 404)) throw error;
    }
  }
}
