// When an informer asks again after its list or watch ended: at once after a watch that ended normally; when the
// server said (a 429's retryAfterSeconds), up to ten times in a row as client-go's REST client does; otherwise after an
// exponential backoff with jitter, which grows with each failure in a row and stays short while the resource is not
// served at all. Pure.
import { KubeApiError } from '../kube/client.js';
import { backoffDelayMs } from '../retry/backoff.js';

export type WatchEnd =
  | { readonly reason: 'stopped' | 'closed' | 'expired' | 'stalled'; readonly received: boolean }
  | { readonly reason: 'error'; readonly received: boolean; readonly error: unknown };

export interface Attempt {
  readonly kind: 'now' | 'asked' | 'backoff';
  readonly delayMs: number;
  /** Failures in a row that were backed off. */
  readonly failures: number;
  /** Refusals in a row that said when to ask again. */
  readonly askedWaits: number;
}

export const FIRST_ATTEMPT: Attempt = { kind: 'now', delayMs: 0, failures: 0, askedWaits: 0 };

/**
 * A 429 names when to ask again. A CRD created again answers so for a second or two, and counting those as failures
 * stretched the backoff of its next real failure to 30 s.
 */
const MAX_ASKED_WAITS = 10;

/**
 * The longest backoff while the server does not serve the resource (404): a CRD deleted and created again, as an
 * upgrade of its chart does, is followed within seconds, not after a backoff that grew while it was gone.
 */
const NOT_SERVED_MAX_MS = 4000;

/**
 * Whether an end calls for backoff: an error does, and so does a watch the server closed at once without sending
 * anything, so that such a server sees no restart storm.
 */
function needsBackoff(end: WatchEnd, watchedForMs: number): boolean {
  if (end.reason === 'error') return true;
  return end.reason === 'closed' && !end.received && watchedForMs < 1000;
}

function refusalOf(end: WatchEnd): KubeApiError | undefined {
  return end.reason === 'error' && end.error instanceof KubeApiError ? end.error : undefined;
}

/** The attempt after `end`, given the one before it; `backoff` defaults to 1 s .. 30 s. */
export function nextAttempt(end: WatchEnd, watchedForMs: number, previous: Attempt, backoff: { readonly baseMs?: number; readonly maxMs?: number } = {}): Attempt {
  const { baseMs = 1000, maxMs = 30_000 } = backoff;
  const refusal = refusalOf(end);
  const askedWaits = refusal?.retryAfterSeconds === undefined ? 0 : previous.askedWaits + 1;
  if (refusal?.retryAfterSeconds !== undefined && askedWaits <= MAX_ASKED_WAITS) {
    return { kind: 'asked', delayMs: refusal.retryAfterSeconds * 1000, failures: previous.failures, askedWaits };
  }
  if (!needsBackoff(end, watchedForMs)) return { kind: 'now', delayMs: 0, failures: 0, askedWaits };
  const failures = end.received ? 1 : previous.failures + 1;
  const cap = refusal?.code === 404 ? Math.min(maxMs, NOT_SERVED_MAX_MS) : maxMs;
  return { kind: 'backoff', delayMs: backoffDelayMs(failures - 1, { baseMs, maxMs: cap, jitter: 0.5 }), failures, askedWaits };
}
