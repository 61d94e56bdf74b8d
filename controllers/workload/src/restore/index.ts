// spec.restoreFrom: a new ensemble started from a verified backup, clients kept out until it is written.
export type { RestoreDependencies } from './dependencies.js';
export { clientsAdmitted, withRestore } from './gate.js';
export { restoreBackup } from './restore-step.js';
export { nextAttemptAt } from './retry.js';
