// When clients are let in to a workload that restores a backup, and what its status says until then (pure). Clients
// are kept out by the client Service, which selects no member until the restore is recorded as done: the one address
// clients are given (status.clientEndpoint) has no endpoints, so no client connects to a half-restored tree, while the
// members, their headless Service and the controller's own sessions work as for any ensemble. Ready stays False until
// the Service lets clients in, which is the reconcile after the one that finished the restore.
import type { RestoreStatus, ZookeeperWorkload, ZookeeperWorkloadStatus } from '@zk-oam/apis';
import { setCondition, type ConditionContext } from '@zk-oam/runtime';

/** Whether the client Service selects the members: always, unless a restore is not yet recorded as done. */
export function clientsAdmitted(workload: Pick<ZookeeperWorkload, 'spec' | 'status'>): boolean {
  return workload.spec.restoreFrom === undefined || workload.status?.restore?.phase === 'Restored';
}

/**
 * The status with the restore's record, and Ready=False for as long as clients are kept out (`admitted` is what the
 * client Service was rendered with in this reconcile).
 */
export function withRestore(status: ZookeeperWorkloadStatus, restore: RestoreStatus | undefined, admitted: boolean, context: ConditionContext): ZookeeperWorkloadStatus {
  if (restore === undefined) return status;
  if (admitted && restore.phase === 'Restored') return { ...status, restore };
  const message =
    restore.phase === 'Restored'
      ? `backup ${restore.backup ?? ''} restored (zxid ${restore.zxid ?? ''}, ${String(restore.znodes ?? 0)} znodes); clients are let in next`
      : (restore.message ?? 'the restore has not started');
  const ready = { type: 'Ready', status: 'False', reason: restore.reason ?? 'Restoring', message } as const;
  return { ...status, restore, conditions: setCondition(status.conditions, ready, context) };
}
