// The lock as a status reports it: another holder is a turn to wait for, or a lock lost while a step was under way.
import { describe, expect, it } from 'vitest';
import { lockOutcomeOf, lostLockMessage } from './lock-outcome.js';

// A Lease's times are microseconds (MicroTime); the message says them to the second, as kubectl describe shows times.
const other = { holder: 'rolling/roll', since: new Date('2026-01-01T00:00:00.123Z'), expiresAt: new Date('2026-01-01T00:01:00.123Z'), operation: 'restart zk' };

describe('lockOutcomeOf', () => {
  it('is held when the operation holds the lock', () => {
    expect(lockOutcomeOf({ held: true }, true)).toEqual({ kind: 'held' });
  });

  it('is busy when another holds it before this operation took a step, and lost when it holds it after', () => {
    expect(lockOutcomeOf({ held: false, ...other }, false)).toEqual({ kind: 'busy', ...other });
    expect(lockOutcomeOf({ held: false, ...other }, true)).toEqual({ kind: 'lost', ...other });
  });
});

describe('lostLockMessage', () => {
  it('names the lock, its holder and what it does, since when, and until when unless renewed, in whole seconds', () => {
    expect(lostLockMessage('zk-disruption', other)).toBe(
      'the lock zk-disruption expired while a step of this operation was under way, and rolling/roll (restart zk) has held it ' +
        'since 2026-01-01T00:00:00Z: nothing more is done until it is free again (at 2026-01-01T00:01:00Z unless renewed); ' +
        'then the operation goes on from what it observes',
    );
  });
});
