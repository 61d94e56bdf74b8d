// When to look again: at the step period while an operation is under way or awaited (well within the lock's duration,
// so the lock is renewed in time), rarely once there is nothing to do: that rare look is paced with every other trait
// of the process by `paced` (runtime's RequeuePacer). A trait that does not validate waits for its next change.
import { done, requeueAfter, type ReconcileResult } from '@zk-oam/runtime';
import type { ScaleTiming } from './dependencies.js';
import type { ScaleVerdict } from './verdict.js';

export function nextReconcile(verdict: ScaleVerdict, timing: ScaleTiming, paced: (periodMs: number) => number): ReconcileResult {
  if (verdict.kind === 'Invalid') return done;
  if (verdict.kind !== 'Planned' || verdict.plan.action.kind === 'Done') return requeueAfter(paced(timing.idleMs));
  return requeueAfter(timing.stepMs);
}
