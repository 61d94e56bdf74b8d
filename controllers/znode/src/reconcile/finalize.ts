// The znode is being deleted: its path is removed recursively (or kept, under reclaimPolicy Retain) and its user taken
// out of the users Secret, then the finalizer goes. A workload that is missing is waited for, within a bound; one being
// deleted, or a path another znode claimed first, lets the finalizer go without touching ZooKeeper; a workload that no
// longer admits the znode's namespace has its user taken back and its path left.
import { kubernetesTime, type ZookeeperWorkload, type ZookeeperZnode } from '@zk-oam/apis';
import { done, formatKey, keyOf, removeFinalizer, requeueAfter, type KubeObject, type ObjectKey, type ReconcileContext, type ReconcileResult } from '@zk-oam/runtime';
import { conflictingClaim, deletionStep, type DeletionInput } from '../plan/index.js';
import { revokeUser, usersSecretOf } from './credentials.js';
import type { ZnodeReconcilerDependencies } from './dependencies.js';
import { inStep } from './errors.js';
import { claimOf, observeWorkload, otherClaims, type MemberView, type WorkloadView } from './observe.js';
import { IDENTITY, ZNODE_FINALIZER, znodeResource } from './resources.js';
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
  const path = znode.status?.path ?? claimOf(znode).path;
  const now = deps.now();
  const step = deletionStep(deletionInput(deps, raw, znode, view, now));
  switch (step.kind) {
    case 'Wait': {
      const until = kubernetesTime(new Date(now.getTime() + step.remainingMs));
      const why = view.presence === 'present' ? '' : `${view.message}; `;
      await report({ kind: 'Deleting', message: `${why}the finalizer goes at ${until} unless it comes back` });
      return requeueAfter(Math.min(step.remainingMs, deps.timing.waitMs));
    }
    case 'Release':
    case 'Revoke':
      context.log.warn({ why: step.why }, 'finalizer released without cleanup');
      if (step.kind === 'Revoke' && view.presence === 'present') await revoke(deps, key, znode, view.workload);
      await deps.recorder.record(raw, { type: 'Warning', reason: 'ReleasedWithoutCleanup', action: 'Finalize', note: `finalizer released without touching ZooKeeper: ${step.why}` });
      break;
    case 'CleanUp':
      if (view.presence !== 'present') throw new Error('a clean-up needs the workload');
      await cleanUp(deps, raw, { ...view, znode, path, retain: step.retain }, context);
      break;
  }
  await inStep('Finalizer', 'FinalizerFailed', key, () => removeFinalizer(deps.client, znodeResource, raw, ZNODE_FINALIZER, IDENTITY.fieldManager));
  deps.pacer.release(formatKey(key));
  return done;
}

function deletionInput(deps: ZnodeReconcilerDependencies, raw: KubeObject, znode: ZookeeperZnode, view: WorkloadView, now: Date): DeletionInput {
  const present = view.presence === 'present' ? view : undefined;
  return {
    workload: view.presence,
    workloadName: znode.spec.workloadRef.name,
    retain: znode.spec.reclaimPolicy === 'Retain',
    admitted: present?.admission.admitted ?? false,
    conflicting: conflictingClaim(claimOf(znode), otherClaims(deps.caches, znode, present?.workload)) !== undefined,
    deletionTimestamp: new Date(raw.metadata.deletionTimestamp ?? now.toISOString()),
    now,
    releaseAfterMs: deps.timing.releaseAfterMs,
  };
}

/** The path deleted (or kept, under Retain), then the tenant's user revoked. */
async function cleanUp(
  deps: ZnodeReconcilerDependencies,
  raw: KubeObject,
  target: { readonly znode: ZookeeperZnode; readonly workload: ZookeeperWorkload; readonly members: readonly MemberView[]; readonly path: string; readonly retain: boolean },
  context: ReconcileContext,
): Promise<void> {
  const key = keyOf(raw);
  const { workload, members, path } = target;
  if (target.retain) {
    await deps.recorder.record(raw, { type: 'Normal', reason: 'PathRetained', action: 'Finalize', note: `kept ${path} (reclaimPolicy Retain)` });
  } else {
    const access = await memberAccess(deps, key, 'Cleanup', workload);
    const deleted = await onZooKeeper(deps, key, 'Cleanup', { workload, members, access }, (admin) => admin.deleteTree(path));
    context.log.info({ path, deleted }, 'tenant path deleted');
    await deps.recorder.record(raw, { type: 'Normal', reason: 'PathDeleted', action: 'Finalize', note: `deleted ${path} and everything under it (${String(deleted)} znodes)` });
  }
  await revoke(deps, key, target.znode, workload);
}

/** The tenant's own key out of the workload's users Secret, on a workload with SASL. */
async function revoke(deps: ZnodeReconcilerDependencies, key: ObjectKey, znode: ZookeeperZnode, workload: ZookeeperWorkload): Promise<void> {
  const sasl = workload.spec.authentication?.sasl;
  if (sasl !== undefined) await inStep('Cleanup', 'CredentialsWriteFailed', key, () => revokeUser(deps, znode, usersSecretOf(workload, sasl)));
}
