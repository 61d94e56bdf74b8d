// The scale reconcile: the pipeline, its dependencies, and the names it coordinates through.
export { reconcileScale, scaleReconciler } from './reconcile.js';
export type { ScaleCaches, ScaleReconcilerDependencies, ScaleTiming } from './dependencies.js';
export * from './resources.js';
export { CACHED_FIELDS } from './views.js';
