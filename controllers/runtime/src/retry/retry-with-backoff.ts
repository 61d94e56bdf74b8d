// A bounded retry of one operation whose failures may pass by themselves (a lost write race, a lost answer), waiting
// the kit's backoff between attempts.
import { backoffDelayMs, type BackoffPolicy } from './backoff.js';
import { pause } from './pause.js';

export interface RetryOptions {
  /** Total attempts, the first included. */
  readonly attempts: number;
  readonly backoff: BackoffPolicy;
  /** Whether a failure is worth another attempt; any other failure is thrown at once. */
  readonly retryable: (error: unknown) => boolean;
  /** Hears each failure that another attempt follows, with its attempt number (1-based). */
  readonly onRetry?: (error: unknown, attempt: number) => void;
  /** Ends the retries: a pause under way ends at once and the last failure is thrown. */
  readonly signal?: AbortSignal;
  /** The wait between attempts; a test's clock may stand in. Default `pause`. */
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** Runs `operation` until it succeeds, fails for good, runs out of attempts or is aborted; throws its last failure. */
export async function retryWithBackoff<R>(operation: () => Promise<R>, options: RetryOptions): Promise<R> {
  const sleep = options.sleep ?? pause;
  const aborted = (): boolean => options.signal?.aborted === true;
  for (let attempt = 1; ; attempt++) {
    try {
      return await operation();
    } catch (error) {
      if (!options.retryable(error) || attempt >= options.attempts || aborted()) throw error;
      options.onRetry?.(error, attempt);
      await sleep(backoffDelayMs(attempt - 1, options.backoff), options.signal);
      if (aborted()) throw error;
    }
  }
}
