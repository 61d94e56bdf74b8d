// When to look at a backup again (pure): at its next scheduled run, soon while a due run waits for the workload, and
// at the idle period otherwise (retention by age, a workload that comes back).
import { done, requeueAfter, type ReconcileResult } from '@zk-oam/runtime';
import type { BackupTiming } from './dependencies.js';
import type { Finding } from './verdict.js';

export function nextReconcile(finding: Finding, timing: BackupTiming, now: Date): ReconcileResult {
  switch (finding.kind) {
    case 'Invalid':
      return done;
    case 'Waiting':
      return requeueAfter(timing.waitMs);
    case 'Idle':
    case 'Ran': {
      const untilNext = finding.nextRunAt === undefined ? timing.idleMs : finding.nextRunAt.getTime() - now.getTime();
      return requeueAfter(Math.max(0, Math.min(untilNext, timing.idleMs)));
    }
  }
}
