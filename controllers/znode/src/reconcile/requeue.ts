// When to look at a znode again (pure): paced at the idle period while it is Ready or refused, soon while it waits.
import { done, requeueAfter, type ReconcileResult } from '@zk-oam/runtime';
import type { ZnodeTiming } from './dependencies.js';
import type { Finding } from './verdict.js';

/** `paced` spreads the process's idle looks (the kit's RequeuePacer). */
export function nextReconcile(finding: Finding, timing: ZnodeTiming, paced: (periodMs: number) => number): ReconcileResult {
  switch (finding.kind) {
    case 'Invalid':
      return done;
    case 'Served':
      return finding.pending === undefined ? requeueAfter(paced(timing.idleMs)) : requeueAfter(timing.waitMs);
    case 'Conflict':
    case 'Refused':
      // A change of the workload or of the znode's namespace's labels wakes it sooner.
      return requeueAfter(paced(timing.idleMs));
    case 'Waiting':
    case 'Deleting':
      return requeueAfter(timing.waitMs);
  }
}
