// The workload reconcile: the pipeline, its dependencies, and the resources, names and annotations it works with.
export { reconcileWorkload, workloadReconciler } from './reconcile.js';
export type { WorkloadCaches, WorkloadReconcilerDependencies } from './dependencies.js';
export { CACHED_CHILD_FIELDS, READ_POD_FIELDS } from './views.js';
export { NAMED_SECRET_FIELDS, SecretReaders } from './named-secrets.js';
export { ApiDiscovery } from './api-discovery.js';
export { RenderedHashes } from './rendered-hashes.js';
export {
  APPLIED_HASH_ANNOTATION,
  certificateResource,
  childResources,
  IDENTITY,
  INITIAL_MEMBERS_ANNOTATION,
  podDisruptionBudgetResource,
  prometheusRuleResource,
  serviceMonitorResource,
  WORKLOAD_STATUS,
  workloadResource,
} from './resources.js';
export { decideRenderInput, type RenderDecision } from './render-decisions.js';
export { refusalMessage, SCALE_REFUSED_CONDITION, SCALE_REFUSED_REASON, type ScaleRefusal } from './scale-refusal.js';
