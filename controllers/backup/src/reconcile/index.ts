// The backup reconcile and the names it writes under.
export { backupReconciler, reconcileBackup } from './reconcile.js';
export type { BackupCaches, BackupReconcilerDependencies, BackupTiming } from './dependencies.js';
export * from './resources.js';
