// Backoff pacing: doubling, the cap, the jitter's bounds.
import { describe, expect, it } from 'vitest';
import { backoffDelayMs, jittered, reconnectBackoff } from './backoff.js';

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

  it('stays at baseMs when maxMs is baseMs: a steady period', () => {
    expect([0, 1, 5].map((attempt) => backoffDelayMs(attempt, { baseMs: 1_000, maxMs: 1_000 }))).toEqual([1_000, 1_000, 1_000]);
  });
});

describe('jittered', () => {
  it('stretches a period by a random factor in [1, 1 + jitter)', () => {
    expect([jittered(2_000, 0.2, () => 0), jittered(2_000, 0.2, () => 0.5), jittered(2_000, 0.2, () => 0.999_999)]).toEqual([2_000, 2_200, 2_400]);
  });
});
