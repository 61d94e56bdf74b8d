// What one reconcile concluded, before anything is done or written (pure): the status, its announcements, the
// deletion or reconfig to carry out and the next look are all derived from it.
import type { BindingProblemReason, InvalidTraitVerdict, LockOutcome } from '@zk-oam/runtime';
import type { EnsembleAssessment } from '@zk-oam/zookeeper';
import type { PodToDelete, RollingPlan, StatefulSetView } from '../plan/index.js';
import type { ReconfigStep } from './reconfigure.js';

export type RollingVerdict =
  /** The trait's spec does not validate: nothing is done, and the status keeps all it recorded. */
  | InvalidTraitVerdict
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
      /** The disruption lock as this reconcile left it. */
      readonly lock: LockOutcome;
    };

/** The pods to delete now: a DeletePods step's, and only while this roll holds the lock. */
export function podsToDelete(verdict: RollingVerdict): readonly PodToDelete[] {
  if (verdict.kind !== 'Planned' || verdict.lock.kind !== 'held' || verdict.plan.step.kind !== 'DeletePods') return [];
  return verdict.plan.step.pods;
}

/** The reconfig to carry out now: a handover step's, and only while this roll holds the lock. */
export function reconfigToRun(verdict: RollingVerdict): ReconfigStep | undefined {
  if (verdict.kind !== 'Planned' || verdict.lock.kind !== 'held') return undefined;
  const step = verdict.plan.step;
  return step.kind === 'HandOverLeadership' || step.kind === 'RestoreVoter' ? step : undefined;
}
