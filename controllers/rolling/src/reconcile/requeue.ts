// When to look again: soon after a deletion, at the step period while a roll waits (always well within the lock's
// duration, so the lock is renewed in time), rarely once there is nothing to do: that rare look is paced with every
// other trait of the process by `paced` (runtime's RequeuePacer). A trait that does not validate waits for its next change.
import { done, requeueAfter, type ReconcileResult } from '@zk-oam/runtime';
import type { RollingTiming } from './dependencies.js';
import type { RollingVerdict } from './verdict.js';

export function nextReconcile(verdict: RollingVerdict, timing: RollingTiming, now: Date, paced: (periodMs: number) => number): ReconcileResult {
  const poll = Math.min(timing.stepMs, (timing.lockDurationSeconds * 1000) / 3);
  if (verdict.kind === 'Invalid') return done;
  if (verdict.kind !== 'Planned') return requeueAfter(paced(timing.idleMs));
  const step = verdict.plan.step;
  switch (step.kind) {
    case 'DeletePods':
      return requeueAfter(verdict.lock.kind === 'held' ? timing.afterDeleteMs : poll);
    case 'RecordRestartRequest':
      return requeueAfter(Math.max(step.at.getTime() - now.getTime(), 0) + 100);
    case 'HandOverLeadership':
    case 'RestoreVoter':
      return requeueAfter(timing.afterDeleteMs);
    case 'Wait':
    case 'Blocked':
      return requeueAfter(poll);
    case 'Done':
    case 'Paused':
      return requeueAfter(paced(timing.idleMs));
  }
}
