// The rolling reconcile: the pipeline, its dependencies, and the names it coordinates through.
export { reconcileRolling, rollingReconciler } from './reconcile.js';
export type { RollingCaches, RollingReconcilerDependencies, RollingTiming } from './dependencies.js';
export * from './resources.js';
export { CACHED_FIELDS } from './views.js';
