// The znode is being deleted: its path is removed recursively (or kept, under reclaimPolicy Retain) and its user taken
// out of the users Secret, then the finalizer goes. A workload that is missing is waited for, within a bound; one being
// deleted, or a path another znode claimed first, lets the finalizer go without touching ZooKeeper.
import type { ZookeeperZnode } from '@zk-oam/apis';
import { done, formatKey, keyOf, removeFinalizer, requeueAfter, type KubeObject, type ReconcileContext, type ReconcileResult } from '@zk-oam/runtime';
import { conflictingClaim, deletionStep } from '../plan/index.js';
import { revokeUser } from './credentials.js';
import type { ZnodeReconcilerDependencies } from './dependencies.js';
import { inStep } from './errors.js';
import { claimOf, observeWorkload, otherClaims } from './observe.js';
import { FIELD_MANAGER, ZNODE_FINALIZER, znodeResource } from './resources.js';
import type { DeletingFinding } from './verdict.js';
import { memberAccess, onZooKeeper } from './zookeeper.js';

/** `report` writes the status of a znode that waits for its workload. */
export async function finalize(
  deps: ZnodeReconcilerDependencies,
  raw: KubeObject,
  znode: ZookeeperZnode,
  context: ReconcileContext,
  report: (finding: DeletingFinding) => Promise<void>,
): Promise<ReconcileResult> {
  if (!(raw.metadata.finalizers ?? []).includes(ZNODE_FINALIZER)) return done;
  const key = keyOf(raw);
  const view = observeWorkload(deps.caches, znode);
  const own = claimOf(znode);
  const path = znode.status?.path ?? own.path;
  const now = deps.now();
  const step = deletionStep({
    workload: view.presence,
    workloadName: znode.spec.workloadRef.name,
    retain: znode.spec.reclaimPolicy === 'Retain',
    conflicting: conflictingClaim(own, otherClaims(deps.caches, znode)) !== undefined,
    deletionTimestamp: new Date(raw.metadata.deletionTimestamp ?? now.toISOString()),
    now,
    releaseAfterMs: deps.timing.releaseAfterMs,
  });
  switch (step.kind) {
    case 'Wait': {
      const until = new Date(now.getTime() + step.remainingMs).toISOString();
      const why = view.presence === 'present' ? '' : `${view.message}; `;
      await report({ kind: 'Deleting', message: `${why}the finalizer goes at ${until} unless it comes back` });
      return requeueAfter(Math.min(step.remainingMs, deps.timing.waitMs));
    }
    case 'Release':
      context.log.warn({ why: step.why }, 'finalizer released without cleanup');
      await deps.recorder.record(raw, { type: 'Warning', reason: 'ReleasedWithoutCleanup', action: 'Finalize', note: `finalizer released without touching ZooKeeper: ${step.why}` });
      break;
    case 'CleanUp': {
      if (view.presence !== 'present') throw new Error('a clean-up needs the workload');
      const { workload, members } = view;
      if (step.retain) {
        await deps.recorder.record(raw, { type: 'Normal', reason: 'PathRetained', action: 'Finalize', note: `kept ${path} (reclaimPolicy Retain)` });
      } else {
        const access = await memberAccess(deps, key, 'Cleanup', workload);
        const deleted = await onZooKeeper(deps, key, 'Cleanup', { workload, members, access }, (admin) => admin.deleteTree(path));
        context.log.info({ path, deleted }, 'tenant path deleted');
        await deps.recorder.record(raw, { type: 'Normal', reason: 'PathDeleted', action: 'Finalize', note: `deleted ${path} and everything under it (${String(deleted)} znodes)` });
      }
      const sasl = workload.spec.authentication?.sasl;
      if (sasl !== undefined) await inStep('Cleanup', 'CredentialsWriteFailed', key, () => revokeUser(deps, znode, sasl.usersSecretRef.name));
      break;
    }
  }
  await inStep('Finalizer', 'FinalizerFailed', key, () => removeFinalizer(deps.client, znodeResource, raw, ZNODE_FINALIZER, FIELD_MANAGER));
  deps.pacer.release(formatKey(key));
  return done;
}
