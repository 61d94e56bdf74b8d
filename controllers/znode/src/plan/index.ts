// The znode controller's pure decisions: who may be a tenant and who the tenant is, the path and its claim, and what a
// deletion comes to.
export { admission, type Admission, type AdmissionInput } from './admission.js';
export { conflictingClaim, znodePath, type PathClaim } from './path.js';
export { deletionStep, type DeletionInput, type DeletionStep, type WorkloadPresence } from './deletion.js';
export { principalId, tenantPrincipal, type TenantPrincipal } from './principal.js';
