export { APPCONFIG_REASONS, type AppConfigReason } from './appconfig.js';
export { TRAIT_BINDING_REASONS, type TraitBindingReason } from './binding.js';
export { isCatalogued, reasonCatalog, type ReasonCatalog, type ReasonEntry } from './entry.js';
export { RECONCILE_FAILURE_REASONS, type ReconcileFailureReason } from './reconcile-failure.js';
export { ROLLING_REASONS, type RollingReason } from './rolling.js';
export { SCALE_REASONS, type ScaleReason } from './scale.js';
export { troubleshootingGuide } from './troubleshooting.js';
export { WORKLOAD_REASONS, type WorkloadFailedStep, type WorkloadReason } from './workload.js';
export { ZNODE_REASONS, type ZnodeReason } from './znode.js';
