// Retry pacing for the event bus: exponential backoff with full jitter, and a sleep that close() cuts short.
import { setTimeout as sleep } from 'node:timers/promises';

export interface BackoffPolicy {
  baseMs: number;
  maxMs: number;
}

export const defaultBackoff: BackoffPolicy = { baseMs: 250, maxMs: 30_000 };

/** The delay before retry number `attempt` (0-based): uniform in [cap/2, cap], cap doubling up to maxMs. */
export function retryDelayMs(attempt: number, policy: BackoffPolicy, random: () => number = Math.random): number {
  const cap = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.min(attempt, 30));
  return Math.round(cap / 2 + (random() * cap) / 2);
}

/** Waits `ms`, or less when the signal aborts; an abort is the normal way a loop is told to stop. */
export async function pause(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return;
  await sleep(ms, undefined, { signal }).catch((error: unknown) => {
    if (!signal.aborted) throw error;
  });
}
