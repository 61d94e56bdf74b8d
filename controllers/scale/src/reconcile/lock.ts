// Step: lock. The per-workload disruption lock (Lease `<workload>-disruption`, apis' disruptionLeaseName), held as
// `scale/<trait>` (disruptionLockHolder) from the first step of an operation to Done and renewed at every reconcile of
// it; the rolling controller takes the same lock as `rolling/<trait>`.
import { disruptionLockHolder, type ZookeeperScale } from '@zk-oam/apis';
import { lockOutcomeOf, type KubeObject, type LockOutcome } from '@zk-oam/runtime';
import { changesWorld, type ScalePlan } from '../plan/index.js';
import type { ScaleReconcilerDependencies } from './dependencies.js';

type Deps = Pick<ScaleReconcilerDependencies, 'lockOf' | 'timing'>;

/**
 * The lock is held from the first step of an operation until Done, waits and blocks included. A wait or block before
 * any operation started (an ensemble still bootstrapping, a member down before a scale-down) leaves it to others.
 */
export function needsLock(plan: ScalePlan, trait: ZookeeperScale): boolean {
  return changesWorld(plan.action) || plan.step !== undefined || trait.status?.operation !== undefined;
}

/** A member change this trait recorded is under way: the lock was held for it, so another holder now means it was lost. */
function stepInFlight(trait: ZookeeperScale): boolean {
  return trait.status?.step !== undefined;
}

/** Takes or renews the lock when the plan needs it and releases it when done; otherwise says whether another holds it. */
export async function settleLock(deps: Deps, trait: ZookeeperScale, workload: KubeObject, plan: ScalePlan): Promise<LockOutcome> {
  const lock = deps.lockOf(workload);
  const holder = disruptionLockHolder('scale', trait.metadata.name);
  if (plan.action.kind === 'Done') {
    await lock.release(holder);
    return { kind: 'free' };
  }
  if (!needsLock(plan, trait)) {
    // Another operation (a roll, a handover) may be changing the ensemble: what this plan waits or blocks for is then its doing.
    const state = await lock.inspect();
    if (state.kind === 'free' || state.expired || state.holder === holder) return { kind: 'free' };
    const { kind: _held, expired: _expired, ...busy } = state;
    return { kind: 'busy', ...busy };
  }
  const operation = `scale ${workload.metadata.name} to ${plan.target} members`;
  return lockOutcomeOf(await lock.tryAcquire(holder, { leaseDurationSeconds: deps.timing.lockDurationSeconds, operation }), stepInFlight(trait));
}

/** The trait is going: the lock is released if it holds it, and its operation stops here. */
export async function releaseLock(deps: Deps, trait: KubeObject, workload: KubeObject): Promise<void> {
  await deps.lockOf(workload).release(disruptionLockHolder('scale', trait.metadata.name));
}
