// The per-workload disruption lock (shared with the scale controller): held for the whole roll, renewed at every
// reconcile of it, released once nothing is left to restart or the roll is paused.
import type { ZookeeperRollingStatus } from '@zk-oam/apis';
import type { KubeObject } from '@zk-oam/runtime';
import type { RollingPlan } from '../plan/index.js';
import type { RollingReconcilerDependencies } from './dependencies.js';
import { lockHolder } from './markers.js';
import type { LockOutcome } from './verdict.js';

/**
 * A roll is under way while a pod is to be restarted or one of ours is on its way back; paused rests without it.
 * Recording a restart request disrupts nothing, so it needs no lock.
 */
export function needsLock(plan: RollingPlan, stored: ZookeeperRollingStatus | undefined): boolean {
  switch (plan.step.kind) {
    case 'DeletePods':
    case 'HandOverLeadership':
    case 'RestoreVoter':
      return true;
    case 'Wait':
    case 'Blocked':
      return plan.progress.pending.length > 0 || stored?.currentPod !== undefined || plan.handover !== undefined;
    case 'Done':
    case 'Paused':
    case 'RecordRestartRequest':
      return false;
  }
}

export async function settleLock(
  deps: Pick<RollingReconcilerDependencies, 'lockFor' | 'timing'>,
  trait: KubeObject,
  workload: KubeObject,
  plan: RollingPlan,
  stored: ZookeeperRollingStatus | undefined,
): Promise<LockOutcome> {
  const lock = deps.lockFor(workload);
  const holder = lockHolder(trait.metadata.name);
  if (!needsLock(plan, stored)) {
    await lock.release(holder);
    return { kind: 'free' };
  }
  const operation = `rolling restart of ${workload.metadata.name}: ${plan.progress.pending.length} pods to restart`;
  const result = await lock.tryAcquire(holder, { leaseDurationSeconds: deps.timing.lockLeaseSeconds, operation });
  if (result.held) return { kind: 'held' };
  return { kind: 'busy', holder: result.holder, since: result.since, expiresAt: result.expiresAt, operation: result.operation };
}
