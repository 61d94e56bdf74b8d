// When a refused restore is tried again (pure). Each attempt reads and verifies the whole backup again, so a refusal
// backs off with the runtime's one backoff, up to five minutes, rather than on every look (every few seconds while
// the workload is not Ready). The count and the next attempt's time are kept in status.restore, so that a controller
// restarted meanwhile keeps to them; a new generation of the workload (the user changed its spec) starts the count
// over and tries at once.
import type { RestoreStatus } from '@zk-oam/apis';
import { backoffDelayMs, type BackoffPolicy } from '@zk-oam/runtime';

/** 5 s, 10 s, 20 s, ... then every 5 minutes; jittered so that workloads refused together do not read in step. */
export const RESTORE_RETRY_BACKOFF: BackoffPolicy = { baseMs: 5_000, maxMs: 300_000, jitter: 0.2 };

/** Whether a look may attempt the restore now: anything but a refusal recorded at this generation whose wait runs on. */
export function attemptDue(stored: RestoreStatus | undefined, generation: number, now: Date): boolean {
  if (stored?.phase !== 'Refused' || stored.observedGeneration !== generation || stored.nextAttemptAt === undefined) return true;
  return now.getTime() >= Date.parse(stored.nextAttemptAt);
}

/**
 * The outcome of an attempt with its retry bookkeeping: a refusal counts one more attempt than the refusal stored at
 * this generation (the first otherwise) and says when the next is due; anything else counts nothing.
 */
export function withRetry(next: RestoreStatus, stored: RestoreStatus | undefined, generation: number, now: Date, random: () => number = Math.random): RestoreStatus {
  if (next.phase !== 'Refused') return next;
  const before = stored?.phase === 'Refused' && stored.observedGeneration === generation ? (stored.attempts ?? 0) : 0;
  const delayMs = backoffDelayMs(before, RESTORE_RETRY_BACKOFF, random);
  return { ...next, attempts: before + 1, nextAttemptAt: new Date(now.getTime() + delayMs).toISOString(), observedGeneration: generation };
}

/** When the reconcile must come back to attempt the restore again, if it waits for a refusal's backoff. */
export function nextAttemptAt(restore: RestoreStatus | undefined): Date | undefined {
  return restore?.phase === 'Refused' && restore.nextAttemptAt !== undefined ? new Date(restore.nextAttemptAt) : undefined;
}
