// What one reconcile concluded, before anything is written: the status and the announcements are derived from it.
import type { BindingProblemReason } from '@zk-oam/runtime';
import type { EnsembleAssessment } from '@zk-oam/zookeeper';
import type { PodToDelete, RollingPlan, StatefulSetView } from '../plan/index.js';
import type { ReconfigStep } from './reconfigure.js';

/** The disruption lock as this reconcile left it. */
export type LockOutcome =
  | { readonly kind: 'held' }
  /** Not needed now (nothing to restart, paused or done); released if it was ours. */
  | { readonly kind: 'free' }
  | { readonly kind: 'busy'; readonly holder: string; readonly since: Date; readonly expiresAt: Date; readonly operation: string | undefined };

export type RollVerdict =
  | { readonly kind: 'Unbound'; readonly reason: BindingProblemReason | 'TlsOnlyUnsupported'; readonly message: string }
  | { readonly kind: 'NoStatefulSet'; readonly name: string }
  | {
      readonly kind: 'Planned';
      readonly plan: RollingPlan;
      readonly statefulSet: StatefulSetView;
      /** Member pods not up right now (see downPods). */
      readonly down: readonly string[];
      /** What ZooKeeper said right before planning: the reconfigs of a handover go through the voters it lists. */
      readonly ensemble: EnsembleAssessment;
      readonly lock: LockOutcome;
    };

/** The pods to delete now: a DeletePods step's, and only while this roll holds the lock. */
export function podsToDelete(verdict: RollVerdict): readonly PodToDelete[] {
  if (verdict.kind !== 'Planned' || verdict.lock.kind !== 'held' || verdict.plan.step.kind !== 'DeletePods') return [];
  return verdict.plan.step.pods;
}

/** The reconfig to carry out now: a handover step's, and only while this roll holds the lock. */
export function reconfigToRun(verdict: RollVerdict): ReconfigStep | undefined {
  if (verdict.kind !== 'Planned' || verdict.lock.kind !== 'held') return undefined;
  const step = verdict.plan.step;
  return step.kind === 'HandOverLeadership' || step.kind === 'RestoreVoter' ? step : undefined;
}
