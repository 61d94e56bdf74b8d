// Retry pacing for reconnect loops (informers, the event bus): exponential backoff with jitter, and a pause
// that a stop signal cuts short.
import { setTimeout as sleep } from 'node:timers/promises';

export interface BackoffPolicy {
  readonly baseMs: number;
  readonly maxMs: number;
}

/** Reconnecting to a server that went away: quick first retries, then at most every 30-45 s. */
export const reconnectBackoff: BackoffPolicy = { baseMs: 250, maxMs: 30_000 };

/**
 * The delay before retry number `attempt` (0-based): `baseMs * 2^attempt` capped at `maxMs`, stretched by a random
 * factor in [1, 1.5) so that many clients losing the same server do not come back in step.
 */
export function retryDelayMs(attempt: number, policy: BackoffPolicy, random: () => number = Math.random): number {
  const cap = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.min(attempt, 30));
  return Math.round(cap * (1 + random() * 0.5));
}

/** Waits `ms`, or less when the signal aborts; an abort is the normal way a loop is told to stop. */
export async function pause(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return;
  await sleep(ms, undefined, { signal }).catch((error: unknown) => {
    if (!signal.aborted) throw error;
  });
}
