// The last step: when the reconcile of a workload comes back by itself. The observer's paced period, sooner while
// anything moves, and never later than what falls due (the renewal of the member certificate, the next attempt of a
// refused restore); and, when a Secret it needs is unusable,
// after a wait that depends on whether a watch will tell of the fix.
import { done, requeueAfter, type ReconcileResult } from '@zk-oam/runtime';
import type { ChildAction } from './apply-children.js';
import type { WorkloadReconcilerDependencies } from './dependencies.js';
import { CertificateNotIssuedError, CertManagerMissingError, type BlockingError } from './errors.js';
import type { StatusReport } from './status.js';

/**
 * Look again after the observer's period while Ready and unchanged, sooner while anything is still moving, paced with
 * every other workload of the process. A workload with no member to observe (pods not yet scheduled or running) waits
 * for the pod and StatefulSet events instead, also right after it applied children: polling it would only repeat the
 * same answer, and each child it reads again is watched, so what the apply changed comes back as an event (a burst of
 * 100 new workloads looked at each one again 3 s later for nothing). Either way it comes back
 * when something falls due (`dueAt`), not a period later: the certificate's renewal (with a renewBeforeMinutes close
 * to the validity, a period is a large part of the time left), or a refused restore's next attempt.
 */
export function nextLook(
  key: string,
  report: Pick<StatusReport, 'status' | 'observable'>,
  actions: readonly ChildAction[],
  deps: Pick<WorkloadReconcilerDependencies, 'pacer' | 'periods' | 'now'>,
  dueAt: Date | undefined,
): ReconcileResult {
  const due = dueAt === undefined ? undefined : untilDue(dueAt, deps.now());
  if (!report.observable) {
    deps.pacer.release(key);
    return due === undefined ? done : requeueAfter(due);
  }
  const ready = report.status.conditions?.some((condition) => condition.type === 'Ready' && condition.status === 'True') ?? false;
  const settled = actions.length === 0;
  const paced = deps.pacer.delayMs(key, ready && settled ? deps.periods.readyMs : deps.periods.progressingMs);
  return requeueAfter(due === undefined ? paced : Math.min(paced, due));
}

/** The sooner of two times that may fall due. */
export function earliest(a: Date | undefined, b: Date | undefined): Date | undefined {
  if (a === undefined) return b;
  return b === undefined || a <= b ? a : b;
}

/** Timers hold at most 2^31-1 ms (24.8 days); a later due time is looked at again in a day, and then again. */
const MAX_DUE_WAIT_MS = 24 * 3_600_000;

function untilDue(dueAt: Date, now: Date): number {
  return Math.min(Math.max(dueAt.getTime() - now.getTime(), 1_000), MAX_DUE_WAIT_MS);
}

/**
 * Every Secret a blocked workload waits for is watched: the user's by their metadata (named-secrets.ts), the
 * controller's own and cert-manager's by their labels; so a fix enqueues the workload at once, and this look is only a
 * safety net for what no Secret event tells: a CA certificate that becomes valid with time.
 */
export const WATCHED_SECRET_RETRY_MS = 300_000;

/** That cert-manager got installed (or its issuer Ready) reaches the controller through no watch: it asks again. */
export const ISSUER_RETRY_MS = 30_000;

export function blockedRetryMs(error: BlockingError): number {
  return error instanceof CertManagerMissingError || error instanceof CertificateNotIssuedError ? ISSUER_RETRY_MS : WATCHED_SECRET_RETRY_MS;
}
