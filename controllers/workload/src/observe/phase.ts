// The one-word summary `kubectl get` shows: Pending, Creating, Running, Degraded or Failed.
import type { WorkloadPhase } from '@zk-oam/apis';
import type { StatusFacts } from './status-facts.js';

export function phaseOf(facts: StatusFacts): WorkloadPhase {
  const healthy =
    facts.statefulSetExists && facts.serving && facts.problem === undefined && facts.drift.kind !== 'mismatch';
  if (!facts.created) {
    if (!facts.statefulSetExists) {
      return 'Pending';
    }
    return healthy ? 'Running' : 'Creating';
  }
  if (!facts.serving) {
    return 'Failed';
  }
  return healthy ? 'Running' : 'Degraded';
}

/** Creation ends the first time the ensemble runs; afterwards a lost quorum is a failure, not slow creation. */
export function hasRunBefore(previous: WorkloadPhase | undefined): boolean {
  return previous === 'Running' || previous === 'Degraded' || previous === 'Failed';
}
