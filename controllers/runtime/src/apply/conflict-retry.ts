// Retries an optimistic write that lost a race (409 Conflict), like client-go's RetryOnConflict, with the kit's backoff.
import { isApiError } from '../kube/client.js';
import { systemClock, type Clock } from '../queue/clock.js';
import { retryWithBackoff } from '../retry/retry-with-backoff.js';

export interface ConflictRetryOptions {
  /** Total attempts, the first included. Default 5. */
  readonly attempts?: number;
  /** Delay before the second attempt, doubled each time. Default 10 ms. */
  readonly baseDelayMs?: number;
  readonly clock?: Clock;
}

/** Runs `attempt` again (it must re-read what it writes) while it fails with 409; other errors pass through. */
export function retryOnConflict<R>(attempt: () => Promise<R>, options: ConflictRetryOptions = {}): Promise<R> {
  const clock = options.clock ?? systemClock;
  return retryWithBackoff(attempt, {
    attempts: options.attempts ?? 5,
    // Each delay stretched by up to 100%, so writers that lost the same race do not meet again. The default five
    // attempts stay well below the cap (under 160 ms before the fifth).
    backoff: { baseMs: options.baseDelayMs ?? 10, maxMs: 1_000, jitter: 1 },
    retryable: (error) => isApiError(error, 409),
    sleep: (ms) => clock.sleep(ms),
  });
}
