// Doubling delays for retries and restarts: a kubelet-like CrashLoopBackOff, scaled down for tests.

export interface BackoffPolicy {
  initialMs: number;
  maxMs: number;
  /** Time a process must stay up before the next failure starts again from initialMs. */
  resetAfterMs: number;
}

export const restartBackoff: BackoffPolicy = { initialMs: 1_000, maxMs: 30_000, resetAfterMs: 60_000 };

/** Delay before attempt number `failures` (1 = first retry). */
export function backoffDelay(policy: BackoffPolicy, failures: number): number {
  const exponent = Math.max(0, failures - 1);
  return Math.min(policy.maxMs, policy.initialMs * 2 ** Math.min(exponent, 30));
}

/** Resolves after `ms`, or at once when the signal aborts. */
export function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted === true) {
      resolve();
      return;
    }
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
