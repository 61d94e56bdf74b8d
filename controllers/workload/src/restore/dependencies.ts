// What the restore needs from the outside world, passed in by start.ts: the store's client (loaded only when a
// workload restores) and the superuser's session that writes the tree.
import type { ObjectStore, S3StoreOptions } from '@zk-oam/backup/store';
import type { TreeRestorerConnector } from '@zk-oam/zookeeper';

export interface RestoreDependencies {
  readonly openStore: (options: S3StoreOptions) => Promise<ObjectStore>;
  readonly connectRestorer: TreeRestorerConnector;
}
