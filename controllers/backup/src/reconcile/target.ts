// The target's store for a run. S3: its credentials and CA read from the Secrets the target names (never cached, never
// logged), then the S3 client. A PersistentVolumeClaim: a Job mounting it runs the volume server for this run alone
// (store/open-pvc-target.ts, which the restore uses too); releasing the store deletes the Job.
import { targetKind, type ZookeeperBackup } from '@zk-oam/apis';
import type { ReconcileContext } from '@zk-oam/runtime';
import { backupVolumeOwner, volumeJobName } from '../render/volume-job.js';
import { openPvcTarget, type TargetStore } from '../store/open-pvc-target.js';
import { openS3Target } from '../store/open-s3-target.js';
import type { BackupReconcilerDependencies } from './dependencies.js';

export type { TargetStore } from '../store/open-pvc-target.js';

type TargetDependencies = Pick<BackupReconcilerDependencies, 'client' | 'openStore' | 'volumeImage'>;

export async function openTargetStore(deps: TargetDependencies, backup: ZookeeperBackup, runId: string, log: ReconcileContext['log']): Promise<TargetStore> {
  const target = targetKind(backup.spec.target);
  if (target.kind === 's3') {
    const store = await openS3Target(deps.client, backup.metadata.namespace ?? '', target.s3, deps.openStore);
    return { store, release: () => Promise.resolve(store.close()) };
  }
  const jobName = volumeJobName('zkb', backup.metadata.uid ?? '', runId);
  return openPvcTarget(deps.client, { owner: backupVolumeOwner(backup), jobName, pvc: target.pvc, image: deps.volumeImage }, log);
}
