// Step: lock. The per-workload disruption lock (Lease `<workload>-disruption`, apis' disruptionLeaseName), held as
// `rolling/<trait>` (disruptionLockHolder) for the whole roll, renewed at every reconcile of it, released once nothing
// is left to restart or the roll is paused; the scale controller takes the same lock as `scale/<trait>`.
import { disruptionLockHolder, type ZookeeperRollingStatus } from '@zk-oam/apis';
import { lockOutcomeOf, type KubeObject, type LockOutcome } from '@zk-oam/runtime';
import type { RollingPlan } from '../plan/index.js';
import type { RollingReconcilerDependencies } from './dependencies.js';

type Deps = Pick<RollingReconcilerDependencies, 'lockOf' | 'timing'>;

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

/** A pod this roll restarted is not back yet, or a handover is recorded: the lock was held for it, so another holder now means it was lost. */
function stepInFlight(stored: ZookeeperRollingStatus | undefined): boolean {
  return stored?.currentPod !== undefined || stored?.handover !== undefined;
}

/** Takes or renews the lock when the plan needs it; releases it otherwise. */
export async function settleLock(
  deps: Deps,
  trait: KubeObject,
  workload: KubeObject,
  plan: RollingPlan,
  stored: ZookeeperRollingStatus | undefined,
): Promise<LockOutcome> {
  const lock = deps.lockOf(workload);
  const holder = disruptionLockHolder('rolling', trait.metadata.name);
  if (!needsLock(plan, stored)) {
    await lock.release(holder);
    return { kind: 'free' };
  }
  const operation = `rolling restart of ${workload.metadata.name}: ${plan.progress.pending.length} pods to restart`;
  return lockOutcomeOf(await lock.tryAcquire(holder, { leaseDurationSeconds: deps.timing.lockDurationSeconds, operation }), stepInFlight(stored));
}

/** The trait is going: the lock is released if it holds it, and its roll stops here. */
export async function releaseLock(deps: Deps, trait: KubeObject, workload: KubeObject): Promise<void> {
  await deps.lockOf(workload).release(disruptionLockHolder('rolling', trait.metadata.name));
}
