// The tests' waits, on vitest's one poller (vi.waitFor): a timeout names what was awaited and the last value or error.
import { vi } from 'vitest';

function describeLast(last: unknown): string {
  return last instanceof Error ? last.message : (JSON.stringify(last) ?? String(last)).slice(0, 2000);
}

/** Polls `read` until `accept` holds for its value, and returns that value. */
export async function waitFor<T>(what: string, read: () => Promise<T>, accept: (value: T) => boolean, timeoutMs: number, intervalMs = 1_000): Promise<T> {
  return vi.waitFor(
    async () => {
      let value: T;
      try {
        value = await read();
      } catch (error) {
        throw new Error(`timed out after ${String(timeoutMs)} ms waiting for ${what}; last: ${describeLast(error)}`, { cause: error });
      }
      if (!accept(value)) throw new Error(`timed out after ${String(timeoutMs)} ms waiting for ${what}; last: ${describeLast(value)}`);
      return value;
    },
    { timeout: timeoutMs, interval: intervalMs },
  );
}

/** Polls `read` until it returns a value other than undefined, and returns it. */
export async function waitForValue<T>(what: string, read: () => Promise<T | undefined>, timeoutMs: number, intervalMs = 1_000): Promise<T> {
  const value = await waitFor(what, read, (candidate) => candidate !== undefined, timeoutMs, intervalMs);
  if (value === undefined) throw new Error(`waiting for ${what} returned nothing`);
  return value;
}
