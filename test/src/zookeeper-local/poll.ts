// Waits for a condition by polling, reporting the last reason it was not met when time runs out.
import { setTimeout as sleep } from 'node:timers/promises';

export class PollTimeoutError extends Error {
  override readonly name = 'PollTimeoutError';
}

/** Calls `check` until it returns a value other than `undefined`; `describe` says what is awaited. */
export async function pollUntil<T>(
  describe: string,
  check: () => Promise<T | undefined>,
  options: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<T> {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await check();
      if (value !== undefined) {
        return value;
      }
    } catch (error: unknown) {
      lastError = error;
    }
    await sleep(options.intervalMs ?? 250);
  }
  throw new PollTimeoutError(`timed out after ${timeoutMs} ms waiting for ${describe}`, { cause: lastError });
}
