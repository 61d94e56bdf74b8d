// The one exponential backoff of the project (reconnect loops, per-key reconcile retries, the test bed's restarts), and
// a pause that a stop signal cuts short.
import { setTimeout as sleep } from 'node:timers/promises';

export interface BackoffPolicy {
  /** The delay of attempt 0. */
  readonly baseMs: number;
  readonly maxMs: number;
  /** Stretches each delay by a random factor in [1, 1 + jitter), so clients failing together do not retry in step. Default 0. */
  readonly jitter?: number;
}

/** Reconnecting to a server that went away: quick first retries, then at most every 30-45 s. */
export const reconnectBackoff: BackoffPolicy = { baseMs: 250, maxMs: 30_000, jitter: 0.5 };

/** The delay before retry number `attempt` (0-based): `baseMs * 2^attempt` capped at `maxMs`, then the jitter. */
export function backoffDelayMs(attempt: number, policy: BackoffPolicy, random: () => number = Math.random): number {
  const cap = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.min(Math.max(0, attempt), 30));
  return Math.round(cap * (1 + random() * (policy.jitter ?? 0)));
}

/** Waits `ms`, or less when the signal aborts; an abort is the normal way a loop is told to stop. */
export async function pause(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted === true) return;
  await sleep(ms, undefined, { signal }).catch((error: unknown) => {
    if (signal?.aborted !== true) throw error;
  });
}
