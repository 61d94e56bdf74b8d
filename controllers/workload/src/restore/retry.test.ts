// A refused restore backs off: 5 s, 10 s, 20 s, ... capped at 5 minutes, counted in the status, started over by a new
// generation; nothing else counts.
import type { RestoreStatus } from '@zk-oam/apis';
import { describe, expect, it } from 'vitest';
import { attemptDue, nextAttemptAt, RESTORE_RETRY_BACKOFF, withRetry } from './retry.js';

const NOW = new Date('2026-11-29T04:00:00Z');
const refusal: RestoreStatus = { phase: 'Refused', reason: 'BackupCorrupted', message: 'znodes-00000.jsonl.gz has SHA-256 ...' };
const noJitter = (): number => 0;
const at = (ms: number): Date => new Date(NOW.getTime() + ms);

/** The waits before each attempt after the first, for `attempts` refusals in a row at one generation. */
function waits(attempts: number): number[] {
  let stored: RestoreStatus | undefined;
  let now = NOW;
  const seen: number[] = [];
  for (let attempt = 0; attempt < attempts; attempt++) {
    stored = withRetry(refusal, stored, 1, now, noJitter);
    const next = nextAttemptAt(stored) ?? now;
    seen.push(next.getTime() - now.getTime());
    now = next;
  }
  return seen;
}

describe('withRetry', () => {
  it('waits 5 s after the first refusal, doubles each time, and never more than 5 minutes', () => {
    expect(waits(9)).toEqual([5_000, 10_000, 20_000, 40_000, 80_000, 160_000, 300_000, 300_000, 300_000]);
    expect(RESTORE_RETRY_BACKOFF.maxMs).toBe(300_000);
  });

  it('counts the attempts at the workload\'s generation in the status', () => {
    const first = withRetry(refusal, undefined, 3, NOW, noJitter);
    expect(first).toEqual({ ...refusal, attempts: 1, nextAttemptAt: at(5_000).toISOString(), observedGeneration: 3 });
    expect(withRetry(refusal, first, 3, at(5_000), noJitter)).toMatchObject({ attempts: 2, nextAttemptAt: at(15_000).toISOString() });
  });

  it('starts over at a new generation: the user changed the spec', () => {
    const many = { ...refusal, attempts: 7, nextAttemptAt: at(300_000).toISOString(), observedGeneration: 1 };
    expect(withRetry(refusal, many, 2, NOW, noJitter)).toMatchObject({ attempts: 1, nextAttemptAt: at(5_000).toISOString(), observedGeneration: 2 });
  });

  it('stretches a wait by at most the jitter, so that workloads refused together do not read the store in step', () => {
    expect(withRetry(refusal, undefined, 1, NOW, () => 0.999)).toMatchObject({ nextAttemptAt: at(5_999).toISOString() });
  });

  it('counts nothing for an attempt that is not refused', () => {
    const restoring: RestoreStatus = { phase: 'Restoring', reason: 'Restoring', message: 'waiting for a quorum' };
    expect(withRetry(restoring, withRetry(refusal, undefined, 1, NOW, noJitter), 1, NOW)).toEqual(restoring);
    expect(nextAttemptAt(restoring)).toBeUndefined();
  });
});

describe('attemptDue', () => {
  const stored = withRetry(refusal, undefined, 1, NOW, noJitter);

  it('holds a refused restore back until its next attempt is due', () => {
    expect(attemptDue(stored, 1, at(4_999))).toBe(false);
    expect(attemptDue(stored, 1, at(5_000))).toBe(true);
  });

  it('attempts at once at a new generation, and whenever the restore is not refused', () => {
    expect(attemptDue(stored, 2, NOW)).toBe(true);
    expect(attemptDue(undefined, 1, NOW)).toBe(true);
    expect(attemptDue({ phase: 'Restoring' }, 1, NOW)).toBe(true);
  });

  it('attempts a refusal recorded before refusals were counted', () => {
    expect(attemptDue(refusal, 1, NOW)).toBe(true);
  });
});
