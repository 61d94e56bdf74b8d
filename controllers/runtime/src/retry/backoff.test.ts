// Reconnect pacing: doubling, the cap, and the jitter's bounds.
import { describe, expect, it } from 'vitest';
import { pause, retryDelayMs } from './backoff.js';

describe('retryDelayMs', () => {
  const policy = { baseMs: 250, maxMs: 30_000 };

  it('doubles with each attempt and stays within [cap, 1.5 cap)', () => {
    expect(retryDelayMs(0, policy, () => 0)).toBe(250);
    expect(retryDelayMs(0, policy, () => 0.999)).toBe(375);
    expect(retryDelayMs(3, policy, () => 0)).toBe(2_000);
  });

  it('stops growing at maxMs, even after very many attempts', () => {
    expect(retryDelayMs(1_000, policy, () => 0)).toBe(30_000);
  });
});

describe('pause', () => {
  it('returns at once when the signal aborts', async () => {
    const stop = new AbortController();
    const paused = pause(60_000, stop.signal);
    stop.abort();
    await expect(paused).resolves.toBeUndefined();
  });
});
