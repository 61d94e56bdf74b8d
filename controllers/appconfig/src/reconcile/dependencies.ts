// What the appconfig reconcile needs from the outside world, passed in by main.ts.
import type { AppConfigReason } from '@zk-oam/apis';
import type { EventDetails, KubeClient, KubeObject, Lister, ResourceType } from '@zk-oam/runtime';

/** The informer caches the reconcile reads instead of the apiserver. */
export interface AppConfigCaches {
  readonly appConfigs: Lister<KubeObject>;
  readonly components: Lister<KubeObject>;
  /** ControllerRevisions labelled as Component revisions. */
  readonly revisions: Lister<KubeObject>;
  readonly workloadDefinitions: Lister<KubeObject>;
  readonly traitDefinitions: Lister<KubeObject>;
  readonly scopeDefinitions: Lister<KubeObject>;
}

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
