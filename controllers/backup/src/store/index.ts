// The store of backups, shared by the backup controller that writes them and the workload controller's restore that
// reads them (`@zk-oam/backup/store`): what a target does, a PersistentVolumeClaim's volume server, and the verified
// reading of a backup. The S3 client is `@zk-oam/backup/store/s3`, apart, so that what imports this module does not
// load the AWS SDK (a tenth of a controller's resident memory) before it opens a store.
export { ObjectStoreError, type ObjectStore } from './object-store.js';
export { BackupRefusedError, newestBackupId, readVerifiedBackup, type BackupRefusal, type VerifiedBackup } from './read-backup.js';
export type { S3StoreOptions } from './s3.js';
export { openS3Target, type SecretReader } from './open-s3-target.js';
export { backupImageSetting, openPvcTarget, type PvcTargetRequest, type TargetStore } from './open-pvc-target.js';
export { volumeJobName, type VolumeJobOwner } from '../render/volume-job.js';
