// The rolling reconcile: the pipeline, its dependencies, and the names it coordinates through.
export { reconcileRolling, rollingReconciler } from './reconcile.js';
export type { RollingCaches, RollingReconcilerDependencies, RollingTiming } from './dependencies.js';
export {
  CONTROLLER_NAME,
  FIELD_MANAGER,
  LEADER_ELECTION_LEASE,
  lockHolder,
  NATS_DURABLE,
  REPORTING_CONTROLLER,
  rollingResource,
  UNBIND_FINALIZER,
  workloadResource,
} from './markers.js';
