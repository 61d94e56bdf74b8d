// The znode controller's pure decisions: the path and its claim, and what a deletion comes to.
export { conflictingClaim, znodePath, type PathClaim } from './path.js';
export { deletionStep, type DeletionInput, type DeletionStep, type WorkloadPresence } from './deletion.js';
