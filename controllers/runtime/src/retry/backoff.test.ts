// Backoff pacing: doubling, the cap, the jitter's bounds; and the pause a signal cuts short.
import { describe, expect, it } from 'vitest';
import { backoffDelayMs, pause, reconnectBackoff } from './backoff.js';

describe('backoffDelayMs', () => {
  it('doubles with each attempt and, with jitter, stays within [cap, (1 + jitter) cap)', () => {
    expect(backoffDelayMs(0, reconnectBackoff, () => 0)).toBe(250);
    expect(backoffDelayMs(0, reconnectBackoff, () => 0.999)).toBe(375);
    expect(backoffDelayMs(3, reconnectBackoff, () => 0)).toBe(2_000);
  });

  it('is exact without jitter', () => {
    expect([0, 1, 2, 3].map((attempt) => backoffDelayMs(attempt, { baseMs: 5, maxMs: 1_000 }, () => 0.999))).toEqual([5, 10, 20, 40]);
  });

  it('stops growing at maxMs, even after very many attempts', () => {
    expect(backoffDelayMs(1_000, reconnectBackoff, () => 0)).toBe(30_000);
  });
});

describe('pause', () => {
  it('returns at once when the signal aborts', async () => {
    const stop = new AbortController();
    const paused = pause(60_000, stop.signal);
    stop.abort();
    await expect(paused).resolves.toBeUndefined();
  });

  it('returns at once when the signal has already aborted', async () => {
    await expect(pause(60_000, AbortSignal.abort())).resolves.toBeUndefined();
  });
});
