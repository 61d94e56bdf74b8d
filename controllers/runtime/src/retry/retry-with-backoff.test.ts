// The bounded retry: the backoff's delays between attempts, which failures end it, and an abort that ends it at once.
import { describe, expect, it } from 'vitest';
import { retryWithBackoff, type RetryOptions } from './retry-with-backoff.js';

class Flaky extends Error {}

/** An operation that fails with `Flaky` `failures` times, then answers 'done'; it counts its calls. */
function failingTimes(failures: number): { run: () => Promise<string>; calls: () => number } {
  let calls = 0;
  return {
    run: () => (++calls <= failures ? Promise.reject(new Flaky(`failure ${String(calls)}`)) : Promise.resolve('done')),
    calls: () => calls,
  };
}

function recordingSleeps(): { sleep: NonNullable<RetryOptions['sleep']>; slept: number[] } {
  const slept: number[] = [];
  return { sleep: (ms) => Promise.resolve(void slept.push(ms)), slept };
}

const retryable = (error: unknown): boolean => error instanceof Flaky;

describe('retryWithBackoff', () => {
  it('waits the backoff between attempts, doubling, until the operation succeeds', async () => {
    const operation = failingTimes(3);
    const { sleep, slept } = recordingSleeps();
    const retried: number[] = [];
    const options = { attempts: 5, backoff: { baseMs: 10, maxMs: 1_000 }, retryable, sleep, onRetry: (_: unknown, attempt: number) => retried.push(attempt) };
    await expect(retryWithBackoff(operation.run, options)).resolves.toBe('done');
    expect([slept, retried, operation.calls()]).toStrictEqual([[10, 20, 40], [1, 2, 3], 4]);
  });

  it('throws a failure that is not retryable at once', async () => {
    const refused = new Error('refused');
    const { sleep, slept } = recordingSleeps();
    await expect(retryWithBackoff(() => Promise.reject(refused), { attempts: 5, backoff: { baseMs: 10, maxMs: 1_000 }, retryable, sleep })).rejects.toBe(refused);
    expect(slept).toStrictEqual([]);
  });

  it('throws the last failure when the attempts run out, without a wait after it', async () => {
    const operation = failingTimes(10);
    const { sleep, slept } = recordingSleeps();
    await expect(retryWithBackoff(operation.run, { attempts: 3, backoff: { baseMs: 10, maxMs: 15 }, retryable, sleep })).rejects.toThrow('failure 3');
    expect([slept, operation.calls()]).toStrictEqual([[10, 15], 3]);
  });

  it('ends at once when aborted during a wait, with the last failure and no further attempt', async () => {
    const operation = failingTimes(10);
    const stop = new AbortController();
    const started = Date.now();
    const abortSoon = (): unknown => setTimeout(() => stop.abort(), 10);
    const retrying = retryWithBackoff(operation.run, { attempts: 5, backoff: { baseMs: 60_000, maxMs: 60_000 }, retryable, signal: stop.signal, onRetry: abortSoon });
    await expect(retrying).rejects.toThrow('failure 1');
    expect(operation.calls()).toBe(1);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('makes one attempt only when the signal has already aborted', async () => {
    const operation = failingTimes(10);
    await expect(retryWithBackoff(operation.run, { attempts: 5, backoff: { baseMs: 10, maxMs: 10 }, retryable, signal: AbortSignal.abort() })).rejects.toThrow('failure 1');
    expect(operation.calls()).toBe(1);
  });
});
