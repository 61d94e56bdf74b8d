// What the backup reconcile needs from the outside world, passed in by start.ts.
import type { BackupReason } from '@zk-oam/apis';
import type { EventRecorder, KubeClient, TraitControllerCaches } from '@zk-oam/runtime';
import type { TreeDumperConnector } from '@zk-oam/zookeeper';
import type { ObjectStore } from '../store/object-store.js';
import type { S3StoreOptions } from '../store/s3.js';

/** The kit's trait caches (ZookeeperBackups as the traits) and the workloads' member pods (MEMBER_SELECTOR). */
export type BackupCaches = TraitControllerCaches<'pods'>;

export interface BackupTiming {
  /** Between looks while nothing is scheduled: retention by age still has to be applied. */
  readonly idleMs: number;
  /** Between looks while a due run waits for the workload or its members. */
  readonly waitMs: number;
  /** Walks of the tree a run may take before znodes changing under it fail it. */
  readonly dumpAttempts: number;
}

export interface BackupReconcilerDependencies {
  readonly caches: BackupCaches;
  readonly client: KubeClient;
  readonly recorder: Pick<EventRecorder<BackupReason>, 'record'>;
  /** The superuser's session that dumps the tree, over TLS whenever the members open a secure port only. */
  readonly connectDumper: TreeDumperConnector;
  /** An S3 store for a target, its credentials read. */
  readonly openStore: (options: S3StoreOptions) => Promise<ObjectStore>;
  /** The backup image, whose volume server a PersistentVolumeClaim target's Job runs. */
  readonly volumeImage: string;
  readonly timing: BackupTiming;
  readonly now: () => Date;
}
