// What the restore needs from the outside world, passed in by start.ts: the S3 client (loaded only when a workload
// restores), the backup image whose volume server reads a PersistentVolumeClaim target, and the superuser's session
// that writes the tree.
import type { ObjectStore, S3StoreOptions } from '@zk-oam/backup/store';
import type { TreeRestorerConnector } from '@zk-oam/zookeeper';

export interface RestoreDependencies {
  readonly openStore: (options: S3StoreOptions) => Promise<ObjectStore>;
  /** The backup image (BACKUP_IMAGE), whose volume server a PersistentVolumeClaim target's Job runs. */
  readonly volumeImage: string;
  readonly connectRestorer: TreeRestorerConnector;
}
