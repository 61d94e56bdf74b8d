import { describe, expect, it } from 'vitest';
import type { RollingTiming } from './dependencies.js';
import { nextReconcile } from './requeue.js';
import type { RollingVerdict } from './verdict.js';

const timing: RollingTiming = { stepMs: 2_000, afterDeleteMs: 500, idleMs: 60_000, lockDurationSeconds: 30 };
const now = new Date('2026-01-01T00:00:00Z');
const paced = (periodMs: number): number => periodMs + 7;

describe('nextReconcile', () => {
  it('paces the rare look at a trait with nothing to do', () => {
    expect(nextReconcile({ kind: 'NoStatefulSet', name: 'zk' }, timing, now, paced)).toEqual({ kind: 'requeueAfter', ms: 60_007 });
    const done = { kind: 'Planned', plan: { step: { kind: 'Done' } }, down: [], lock: { kind: 'free' } } as unknown as RollingVerdict;
    expect(nextReconcile(done, timing, now, paced)).toEqual({ kind: 'requeueAfter', ms: 60_007 });
  });

  it('does not pace a roll under way: it polls within the lock duration', () => {
    const waiting = { kind: 'Planned', plan: { step: { kind: 'Wait' } }, down: [], lock: { kind: 'held' } } as unknown as RollingVerdict;
    expect(nextReconcile(waiting, timing, now, paced)).toEqual({ kind: 'requeueAfter', ms: 2_000 });
  });
});
