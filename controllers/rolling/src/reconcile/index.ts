// The rolling reconcile: the pipeline, its dependencies, and the names it coordinates through.
export { reconcileRolling, rollingReconciler } from './reconcile.js';
export type { RollingCaches, RollingReconcilerDependencies, RollingTiming } from './dependencies.js';
export { FIELD_MANAGER, lockHolder, rollingResource, UNBIND_FINALIZER, workloadResource } from './markers.js';
