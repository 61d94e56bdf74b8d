// The backup controller's surface for tests: its pure decisions and the object store it writes to.
export * from './plan/index.js';
export type { ObjectStore } from './store/object-store.js';
export { ObjectStoreError } from './store/object-store.js';
export { s3Store, type S3StoreOptions } from './store/s3.js';
export { DirectoryStore } from './store/directory.js';
export { BackupWriter, type WrittenBackup } from './store/backup-writer.js';
