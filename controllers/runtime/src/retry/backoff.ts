// The one exponential backoff of the project: reconnect loops, per-key reconcile retries, conflict retries, the
// ZooKeeper admin client's reconfig retries and the test bed's restarts all take their delays from it.

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
  return jittered(cap, policy.jitter ?? 0, random);
}

/** `ms` stretched by a random factor in [1, 1 + jitter), for a steady period that must not run in step with others. */
export function jittered(ms: number, jitter: number, random: () => number = Math.random): number {
  return Math.round(ms * (1 + random() * jitter));
}
