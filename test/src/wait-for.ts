// The one poller of the tests, the benchmarks, the bed's own code and `npm start`: a timeout names what was awaited and
// the last value or error, and a wait gives up at once when it has become pointless (a process it depends on died). It
// does not use vitest, so that code outside a test can wait the same way.
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Between two reads when the caller names no interval: most waits read one object or a short list from the apiserver,
 * which shows a change within tens of milliseconds, so a slower poll only adds waiting; four reads a second are still
 * nothing to the apiserver. Reads that cost more (a four-letter word to every member, a JVM client, a list of many
 * objects) pass their own, longer interval.
 */
export const POLL_INTERVAL_MS = 250;

/** For a read that costs next to nothing: a port of a process on this machine, a file, a value in memory. */
export const LOCAL_POLL_INTERVAL_MS = 100;

/** Says why waiting for `what` has become pointless (a child process exited, a member died), or undefined to go on. */
export type GiveUp = (what: string) => Error | undefined | Promise<Error | undefined>;

/** A wait that ran out of time: names what was awaited and carries the last value read, or the last read's error. */
export class WaitTimeoutError extends Error {
  override readonly name = 'WaitTimeoutError';

  constructor(
    readonly what: string,
    readonly timeoutMs: number,
    readonly last: unknown,
  ) {
    super(`timed out after ${String(timeoutMs)} ms waiting for ${what}; last: ${describeLast(last)}`, { cause: last });
  }
}

/** The last value as JSON, bigints (zxids, session ids) as their digits: JSON.stringify alone throws on them. */
function describeLast(last: unknown): string {
  if (last instanceof Error) return last.message;
  const json = JSON.stringify(last, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value));
  return (json ?? String(last)).slice(0, 2000);
}

/**
 * Polls `read` until `accept` holds for its value, and returns that value; a throwing `read` is retried. Before each
 * read `giveUp` may end the wait with its error. The last read happens at the deadline, not one interval before it.
 */
export async function waitFor<T>(
  what: string,
  read: () => Promise<T>,
  accept: (value: T) => boolean,
  timeoutMs: number,
  intervalMs = POLL_INTERVAL_MS,
  giveUp?: GiveUp,
): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const pointless = await giveUp?.(what);
    if (pointless !== undefined) throw pointless;
    let last: unknown;
    try {
      const value = await read();
      if (accept(value)) return value;
      last = value;
    } catch (error) {
      last = error;
    }
    const left = deadline - performance.now();
    if (left <= 0) throw new WaitTimeoutError(what, timeoutMs, last);
    await sleep(Math.min(intervalMs, left));
  }
}

/** Polls `read` until it returns a value other than undefined, and returns it. */
export async function waitForValue<T>(what: string, read: () => Promise<T | undefined>, timeoutMs: number, intervalMs = POLL_INTERVAL_MS, giveUp?: GiveUp): Promise<T> {
  const value = await waitFor(what, read, (candidate) => candidate !== undefined, timeoutMs, intervalMs, giveUp);
  if (value === undefined) throw new Error(`waiting for ${what} returned nothing`);
  return value;
}
