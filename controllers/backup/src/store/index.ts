// The store of backups, shared by the backup controller that writes them and the workload controller's restore that
// reads them (`@zk-oam/backup/store`): what a target does, the S3 client, a PersistentVolumeClaim's volume server, and
// the verified reading of a backup.
export { ObjectStoreError, type ObjectStore } from './object-store.js';
export { BackupRefusedError, newestBackupId, readVerifiedBackup, type BackupRefusal, type VerifiedBackup } from './read-backup.js';
export { s3Store, type S3StoreOptions } from './s3.js';
export { openS3Target, type SecretReader } from './open-s3-target.js';
export { backupImageSetting, openPvcTarget, type PvcTargetRequest, type TargetStore } from './open-pvc-target.js';
export { volumeJobName, type VolumeJobOwner } from '../render/volume-job.js';
