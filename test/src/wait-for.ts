// The one poller of the tests, benchmarks and `npm start`: a timeout names what was awaited and the last value or
// error. It does not use vitest, so that code outside a test (benchmarks, start.ts) can wait the same way.
import { setTimeout as sleep } from 'node:timers/promises';

function describeLast(last: unknown): string {
  return last instanceof Error ? last.message : (JSON.stringify(last) ?? String(last)).slice(0, 2000);
}

/** Polls `read` until `accept` holds for its value, and returns that value; a throwing `read` is retried. */
export async function waitFor<T>(what: string, read: () => Promise<T>, accept: (value: T) => boolean, timeoutMs: number, intervalMs = 1_000): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    let last: unknown;
    try {
      const value = await read();
      if (accept(value)) return value;
      last = value;
    } catch (error) {
      last = error;
    }
    if (performance.now() + intervalMs > deadline) {
      throw new Error(`timed out after ${String(timeoutMs)} ms waiting for ${what}; last: ${describeLast(last)}`, { cause: last });
    }
    await sleep(intervalMs);
  }
}

/** Polls `read` until it returns a value other than undefined, and returns it. */
export async function waitForValue<T>(what: string, read: () => Promise<T | undefined>, timeoutMs: number, intervalMs = 1_000): Promise<T> {
  const value = await waitFor(what, read, (candidate) => candidate !== undefined, timeoutMs, intervalMs);
  if (value === undefined) throw new Error(`waiting for ${what} returned nothing`);
  return value;
}
