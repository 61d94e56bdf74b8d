// The one-word summary `kubectl get` shows: Pending, Creating, Running, Degraded or Failed.
import type { WorkloadPhase } from '@zk-oam/apis';
import type { Judgement } from './judgement.js';

export function phaseOf(judgement: Judgement): WorkloadPhase {
  const healthy =
    judgement.statefulSetExists && judgement.serving && judgement.problem === undefined && judgement.drift.kind !== 'mismatch';
  if (!judgement.created) {
    if (!judgement.statefulSetExists) {
      return 'Pending';
    }
    return healthy ? 'Running' : 'Creating';
  }
  if (!judgement.serving) {
    return 'Failed';
  }
  return healthy ? 'Running' : 'Degraded';
}

/** Creation ends the first time the ensemble runs; afterwards a lost quorum is a failure, not slow creation. */
export function hasRunBefore(previous: WorkloadPhase | undefined): boolean {
  return previous === 'Running' || previous === 'Degraded' || previous === 'Failed';
}
