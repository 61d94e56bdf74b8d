// The finalizer oam-kubernetes-runtime puts on an ApplicationConfiguration whose components are in scopes: it holds
// the deletion until every workload is removed from its scopes. Patched, never applied: another controller's finalizer
// is never dropped and a deleted object is never re-created.
import type { ApplicationConfiguration } from '@zk-oam/apis';
import { isApiError, jsonPatchObject, keyOf, mergePatchObject, type KubeClient, type KubeObject } from '@zk-oam/runtime';
import { IDENTITY, oamResources } from './resources.js';
import { scopeEntries } from './scopes.js';

export const SCOPE_FINALIZER = 'scope.finalizer.core.oam.dev';

type ApplicationConfigurationStatus = NonNullable<ApplicationConfiguration['status']>;

export function holdsScopeFinalizer(raw: KubeObject): boolean {
  return raw.metadata.finalizers?.includes(SCOPE_FINALIZER) ?? false;
}

/** Needed while a component names a scope or the status records a workload in one (which must be removed first). */
export function needsScopeFinalizer(appConfig: ApplicationConfiguration, status: ApplicationConfigurationStatus | undefined): boolean {
  return appConfig.spec.components.some((entry) => (entry.scopes ?? []).length > 0) || scopeEntries(status).length > 0;
}

/** Before any scope is told of a workload, so that a deletion never leaves a reference behind. */
export async function addScopeFinalizerIfNeeded(client: KubeClient, raw: KubeObject, appConfig: ApplicationConfiguration, status: ApplicationConfigurationStatus | undefined): Promise<void> {
  if (!holdsScopeFinalizer(raw) && needsScopeFinalizer(appConfig, status)) await setScopeFinalizer(client, raw, true);
}

/** Once no component names a scope and the written status records no workload in one. */
export async function releaseScopeFinalizerIfUnneeded(client: KubeClient, raw: KubeObject, appConfig: ApplicationConfiguration, status: ApplicationConfigurationStatus): Promise<void> {
  if (holdsScopeFinalizer(raw) && !needsScopeFinalizer(appConfig, status)) await setScopeFinalizer(client, raw, false);
}

/**
 * Adds the finalizer with the list under the resourceVersion read; removes it with a JSON patch that tests it is still
 * at the index read, which holds even after this reconcile wrote the status (and so moved the resourceVersion). An
 * ApplicationConfiguration already gone needs neither.
 */
export async function setScopeFinalizer(client: KubeClient, raw: KubeObject, held: boolean): Promise<void> {
  const finalizers = raw.metadata.finalizers ?? [];
  const resource = oamResources.applicationConfiguration;
  try {
    if (held) {
      await mergePatchObject(client, resource, keyOf(raw), { metadata: { resourceVersion: raw.metadata.resourceVersion, finalizers: [...finalizers, SCOPE_FINALIZER] } }, IDENTITY.fieldManager);
      return;
    }
    const path = `/metadata/finalizers/${String(finalizers.indexOf(SCOPE_FINALIZER))}`;
    await jsonPatchObject(client, resource, keyOf(raw), [{ op: 'test', path, value: SCOPE_FINALIZER }, { op: 'remove', path }], IDENTITY.fieldManager);
  } catch (error) {
    if (!isApiError(error, 404)) throw error;
  }
}
