// The lock decision table: who may take, keep or take over the lock, at which instant.
import { describe, expect, it } from 'vitest';
import { decideLock, lockRecordOf, type LockRecord } from './decision.js';

const t0 = Date.parse('2026-01-01T00:00:00Z');
const heldByScale: LockRecord = { holder: 'scale/a', acquiredAt: t0 - 60_000, renewedAt: t0, durationSeconds: 30 };

describe('decideLock', () => {
  it.each<[string, LockRecord | undefined, string, number, string]>([
    ['no Lease yet', undefined, 'scale/a', 0, 'create'],
    ['a released Lease (no holder)', { renewedAt: t0, durationSeconds: 30 }, 'rolling/b', 0, 'acquire'],
    ['a Lease with an empty holder', { holder: '', renewedAt: t0, durationSeconds: 30 }, 'rolling/b', 0, 'acquire'],
    ['the same operation, within the duration (a restart resumes)', heldByScale, 'scale/a', 1_000, 'renew'],
    ['the same operation, long after expiry (nobody took it)', heldByScale, 'scale/a', 3_600_000, 'renew'],
    ['another operation, just renewed', heldByScale, 'rolling/b', 0, 'busy'],
    ['another operation, one millisecond before expiry', heldByScale, 'rolling/b', 29_999, 'busy'],
    ['another operation, at expiry', heldByScale, 'rolling/b', 30_000, 'takeover'],
    ['another operation, after expiry', heldByScale, 'rolling/b', 90_000, 'takeover'],
    ['another operation, a holder without renew time', { holder: 'scale/a', durationSeconds: 30 }, 'rolling/b', 0, 'takeover'],
  ])('%s: %s asking at +%i ms -> %s', (_case, record, holder, offsetMs, expected) => {
    expect(decideLock(record, holder, t0 + offsetMs).kind).toBe(expected);
  });

  it('tells a busy caller who holds the lock, since when, and until when', () => {
    expect(decideLock(heldByScale, 'rolling/b', t0 + 10_000)).toEqual({
      kind: 'busy',
      holder: 'scale/a',
      since: new Date(t0 - 60_000),
      expiresAt: new Date(t0 + 30_000),
    });
  });

  it('names the expired holder it takes over from', () => {
    expect(decideLock(heldByScale, 'rolling/b', t0 + 31_000)).toEqual({
      kind: 'takeover',
      previous: { holder: 'scale/a', since: new Date(t0 - 60_000), expiresAt: new Date(t0 + 30_000) },
    });
  });
});

describe('lockRecordOf', () => {
  it('reads the apiserver microsecond times and drops unparseable ones', () => {
    const record = lockRecordOf({
      metadata: { name: 'x-disruption' },
      spec: { holderIdentity: 'scale/a', acquireTime: '2026-01-01T00:00:00.000000Z', renewTime: 'yesterday', leaseDurationSeconds: 30 },
    });
    expect(record).toEqual({ holder: 'scale/a', acquiredAt: t0, renewedAt: undefined, durationSeconds: 30 });
  });
});
