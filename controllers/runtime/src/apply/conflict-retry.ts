// Retries an optimistic write that lost a race (409 Conflict), like client-go's RetryOnConflict.
import { isApiError } from '../kube/client.js';
import { sleep, systemClock, type Clock } from '../queue/clock.js';

export interface ConflictRetryOptions {
  /** Total attempts, the first included. Default 5. */
  readonly attempts?: number;
  /** Delay before the second attempt, doubled each time. Default 10 ms. */
  readonly baseDelayMs?: number;
  readonly clock?: Clock;
}

/** Runs `attempt` again (it must re-read what it writes) while it fails with 409; other errors pass through. */
export async function retryOnConflict<R>(attempt: () => Promise<R>, options: ConflictRetryOptions = {}): Promise<R> {
  const attempts = options.attempts ?? 5;
  const baseDelayMs = options.baseDelayMs ?? 10;
  for (let index = 1; ; index++) {
    try {
      return await attempt();
    } catch (error) {
      if (!isApiError(error, 409) || index >= attempts) throw error;
      await sleep(options.clock ?? systemClock, baseDelayMs * 2 ** (index - 1) * (1 + Math.random()));
    }
  }
}
