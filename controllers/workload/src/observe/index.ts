// The workload controller's observer: ask the ensemble, derive the status, name the facts worth announcing.
export { observeEnsemble, type ObserveEnsembleOptions } from './observe-ensemble.js';
export { connectAdmin, type AdminFactory, type ConfigReader } from './committed-config.js';
export type { CommittedConfigReading, EnsembleObservation, ObservedPod } from './ensemble-observation.js';
export { CommittedConfigReadError, NoServingMemberError, PodWithoutIpError } from './errors.js';
export { deriveStatus, type CommittedMembership, type DeriveStatusInput, type DerivedStatus } from './derive-status.js';
export { statusChanges, type KubernetesEventDetails, type StatusChange, type WorkloadEventType } from './status-changes.js';
export { myidOfPod, memberName, podOfMember } from './member-identity.js';
export { formatLabelSelector } from './label-selector.js';
