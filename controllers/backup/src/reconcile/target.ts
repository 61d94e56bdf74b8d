// The target's store for a run: the S3 client for the backup's target, with the credentials its Secrets hold.
import type { ZookeeperBackup } from '@zk-oam/apis';
import { openS3Target } from '../store/open-s3-target.js';
import type { ObjectStore } from '../store/object-store.js';
import type { BackupReconcilerDependencies } from './dependencies.js';

export function openTargetStore(deps: Pick<BackupReconcilerDependencies, 'client' | 'openStore'>, backup: ZookeeperBackup): Promise<ObjectStore> {
  return openS3Target(deps.client, backup.metadata.namespace ?? '', backup.spec.target.s3, deps.openStore);
}
