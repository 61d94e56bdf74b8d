// The appconfig reconcile: the pipeline, its dependencies, and the resources and names it works with.
export { appConfigReconciler, reconcileAppConfig } from './reconcile.js';
export type { AppConfigCaches, AppConfigReconcilerDependencies } from './dependencies.js';
export { KindDiscovery } from './kind-discovery.js';
export { controllerRevisionResource, IDENTITY, oamResources } from './resources.js';
export { SYNCED_CONDITION, SYNCED_REASON } from './status.js';
