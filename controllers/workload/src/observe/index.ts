// The workload controller's observer: ask the ensemble, derive the status, name the facts worth announcing.
export { deriveStatus, type CommittedMembership, type DeriveStatusInput, type DerivedStatus } from './derive-status.js';
export { statusChanges, type KubernetesEventDetails, type StatusChange, type WorkloadEventType } from './status-changes.js';
export { formatLabelSelector } from './label-selector.js';
