// The appconfig reconcile: the pipeline, its dependencies, and the resources and names it works with.
export { appConfigReconciler, reconcileAppConfig } from './reconcile.js';
export type { AppConfigCaches, AppConfigReconcilerDependencies } from './dependencies.js';
export { KindDiscovery } from './kind-discovery.js';
export { controllerRevisionResource, CONTROLLER_NAME, FIELD_MANAGER, LEADER_ELECTION_LEASE, oamResources, REPORTING_CONTROLLER } from './resources.js';
export { SYNCED_CONDITION, SYNCED_REASON } from './status.js';
