import { describe, expect, it } from 'vitest';
import { waitFor, waitForValue, WaitTimeoutError } from './wait-for.js';

function counting<T>(answer: (call: number) => T): { read: () => Promise<T>; calls: () => number } {
  let calls = 0;
  return {
    read: () => {
      calls += 1;
      try {
        return Promise.resolve(answer(calls));
      } catch (error) {
        return Promise.reject(error instanceof Error ? error : new Error(String(error)));
      }
    },
    calls: () => calls,
  };
}

describe('waitFor', () => {
  it('returns the first accepted value, retrying reads that throw', async () => {
    const reads = counting((call) => {
      if (call < 3) throw new Error('not yet');
      return call;
    });
    await expect(waitFor('three reads', reads.read, (value) => value >= 3, 5_000, 10)).resolves.toBe(3);
    expect(reads.calls()).toBe(3);
  });

  it('names what it waited for and the last value when it times out', async () => {
    const waiting = waitFor('the answer', () => Promise.resolve({ answer: 41 }), (value) => value.answer === 42, 100, 10);
    await expect(waiting).rejects.toThrow(/^timed out after 100 ms waiting for the answer; last: {"answer":41}$/);
    await expect(waiting).rejects.toMatchObject({ name: 'WaitTimeoutError', what: 'the answer', last: { answer: 41 } });
  });

  it('names a last value that holds bigints (zxids), instead of failing to serialize it', async () => {
    const timedOut = waitFor('a zxid', () => Promise.resolve({ zxid: 0x100000003n }), () => false, 30, 10);
    await expect(timedOut).rejects.toThrow('timed out after 30 ms waiting for a zxid; last: {"zxid":"4294967299"}');
  });

  it('names the last error, and keeps it as the cause, when every read threw', async () => {
    const refused = new Error('connect ECONNREFUSED 127.0.0.1:2181');
    const error: unknown = await waitFor('a port', () => Promise.reject(refused), () => true, 50, 10).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(WaitTimeoutError);
    expect((error as WaitTimeoutError).message).toMatch(/waiting for a port; last: connect ECONNREFUSED/);
    expect((error as WaitTimeoutError).cause).toBe(refused);
  });

  it('reads once more at the deadline instead of giving up an interval early', async () => {
    const started = performance.now();
    const reads = counting(() => performance.now() - started >= 140);
    await expect(waitFor('the deadline', reads.read, Boolean, 150, 1_000)).resolves.toBe(true);
    // Sooner than the one interval (1 s) it would have slept before another read.
    expect(performance.now() - started).toBeLessThan(900);
  });

  it('polls every 250 ms when no interval is named', async () => {
    const started = performance.now();
    const reads = counting((call) => call);
    await waitFor('a third read', reads.read, (call) => call === 3, 5_000);
    expect(performance.now() - started).toBeGreaterThanOrEqual(2 * 250 - 5);
    // Two pauses of the old 1 s default would take 2 s.
    expect(performance.now() - started).toBeLessThan(1_900);
  });

  it('gives up with the error giveUp names, before reading again, without waiting for the timeout', async () => {
    let alive = true;
    const died = new Error('etcd exited with code 1');
    const reads = counting((call) => {
      if (call === 2) alive = false;
      return false;
    });
    const started = performance.now();
    const waiting = waitFor('etcd /health', reads.read, Boolean, 10_000, 10, () => (alive ? undefined : died));
    await expect(waiting).rejects.toBe(died);
    expect(reads.calls()).toBe(2);
    // Far sooner than the 10 s timeout.
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('accepts an asynchronous giveUp', async () => {
    const died = new Error('gone');
    await expect(waitFor('never', () => Promise.resolve(false), Boolean, 10_000, 10, () => Promise.resolve(died))).rejects.toBe(died);
  });
});

describe('waitForValue', () => {
  it('returns the first value that is not undefined', async () => {
    const reads = counting((call) => (call < 3 ? undefined : `read ${String(call)}`));
    await expect(waitForValue('a value', reads.read, 5_000, 10)).resolves.toBe('read 3');
  });

  it('times out naming what it waited for', async () => {
    await expect(waitForValue('a value', () => Promise.resolve(undefined), 50, 10)).rejects.toThrow(/waiting for a value; last: undefined/);
  });
});
