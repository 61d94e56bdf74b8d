// What the appconfig reconcile needs from the outside world, passed in by main.ts.
import type { AppConfigReason } from '@zk-oam/apis';
import type { EventDetails, KubeClient, KubeObject, Listers, ResourceType } from '@zk-oam/runtime';

/** The informer caches the reconcile reads instead of the apiserver; `revisions` are the ControllerRevisions labelled as Component revisions. */
export type AppConfigCaches = Listers<'appConfigs' | 'components' | 'revisions' | 'workloadDefinitions' | 'traitDefinitions' | 'scopeDefinitions'>;

export interface AppConfigReconcilerDependencies {
  readonly client: KubeClient;
  readonly caches: AppConfigCaches;
  /** Kinds served for the given apiVersions (API discovery, cached by the caller). */
  readonly discovery: { resources(apiVersions: Iterable<string>): Promise<ResourceType[]> };
  /** Warning reasons are those docs/troubleshooting.md explains. */
  readonly recorder: { record(regarding: KubeObject, details: EventDetails<AppConfigReason>): Promise<void> };
  readonly now: () => Date;
  /**
   * Rendered objects are not watched (their kinds are whatever the definitions name), so drift is repaired by
   * looking again every `idleMs`; while a problem is reported, every `waitMs` (a missing CRD may appear); while an
   * object waits for a data input, every `dependencyCheckMs` (its source is not watched either).
   */
  readonly periods: { readonly idleMs: number; readonly waitMs: number; readonly dependencyCheckMs: number };
}
