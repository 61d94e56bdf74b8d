// The store a restore reads its backup from, the target opened as the backup controller opens it for a run
// (`@zk-oam/backup/store`): S3 with the credentials of the Secrets it names, in this workload's namespace; or a
// PersistentVolumeClaim of this namespace through a volume server Job that mounts it for this attempt alone, owned by
// the workload and deleted when the attempt ends.
import { targetKind, ZOOKEEPER_WORKLOAD, type ZookeeperWorkload } from '@zk-oam/apis';
import { openPvcTarget, openS3Target, volumeJobName, type TargetStore, type VolumeJobOwner } from '@zk-oam/backup/store';
import type { ReconcileContext } from '@zk-oam/runtime';
import type { WorkloadReconcilerDependencies } from '../reconcile/dependencies.js';

/** The label naming the workload on the Jobs its restore starts: the Jobs an attempt left are found by it. */
export const RESTORE_JOB_LABEL = 'workload.zookeeper.zkoam.dev/restore';

type Deps = Pick<WorkloadReconcilerDependencies, 'client' | 'now' | 'restore'>;

function restoreVolumeOwner(workload: ZookeeperWorkload): VolumeJobOwner {
  const { name, namespace = '', uid = '' } = workload.metadata;
  return { apiVersion: `${ZOOKEEPER_WORKLOAD.group}/${ZOOKEEPER_WORKLOAD.version}`, kind: ZOOKEEPER_WORKLOAD.kind, namespace, name, uid, label: RESTORE_JOB_LABEL };
}

export async function openRestoreSource(deps: Deps, workload: ZookeeperWorkload, log: ReconcileContext['log']): Promise<TargetStore> {
  const from = workload.spec.restoreFrom;
  if (from === undefined) throw new Error('openRestoreSource needs spec.restoreFrom');
  const target = targetKind(from.target);
  if (target.kind === 's3') {
    const store = await openS3Target(deps.client, workload.metadata.namespace ?? '', target.s3, deps.restore.openStore);
    return { store, release: () => Promise.resolve(store.close()) };
  }
  const jobName = volumeJobName('zkw', workload.metadata.uid ?? '', deps.now().toISOString());
  return openPvcTarget(deps.client, { owner: restoreVolumeOwner(workload), jobName, pvc: target.pvc, image: deps.restore.volumeImage }, log);
}
