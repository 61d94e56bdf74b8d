// When the workload's reconcile comes back by itself: the paced period, or the certificate's renewal if that is sooner;
// when blocked on a Secret, soon only if no watch will tell of the fix.
import { done, requeueAfter } from '@zk-oam/runtime';
import { describe, expect, it } from 'vitest';
import type { ChildAction } from './apply-children.js';
import { AuthenticationSecretInvalidError, CertificateNotIssuedError, CertManagerMissingError, SuperuserSecretInvalidError, TlsCaSecretInvalidError } from './errors.js';
import { blockedRetryMs, ISSUER_RETRY_MS, nextLook, WATCHED_SECRET_RETRY_MS } from './requeue.js';

const NOW = new Date('2026-11-26T01:00:00Z');
const READY = { status: { conditions: [{ type: 'Ready', status: 'True' as const, reason: 'Serving', message: '', lastTransitionTime: '2026-11-26T00:00:00Z' }] }, observable: true };
const NOT_OBSERVABLE = { status: {}, observable: false };
const CHANGED: ChildAction[] = [{ verb: 'Updated', kind: 'Secret', name: 'zk-tls', note: 'Updated Secret zk-tls' }];

/** A pacer that gives every key exactly the period it asks for, and remembers what was released. */
function deps(): Parameters<typeof nextLook>[3] & { released: string[] } {
  const released: string[] = [];
  return {
    released,
    now: () => NOW,
    periods: { readyMs: 10_000, progressingMs: 3_000 },
    pacer: { delayMs: (_key: string, periodMs: number) => periodMs, release: (key: string) => released.push(key) },
  };
}

const inSeconds = (seconds: number): Date => new Date(NOW.getTime() + seconds * 1_000);

describe('nextLook', () => {
  it('looks again after the ready period while Ready and unchanged, after the progressing period otherwise', () => {
    expect(nextLook('prod/zk', READY, [], deps(), undefined)).toEqual(requeueAfter(10_000));
    expect(nextLook('prod/zk', READY, CHANGED, deps(), undefined)).toEqual(requeueAfter(3_000));
    expect(nextLook('prod/zk', { status: {}, observable: true }, [], deps(), undefined)).toEqual(requeueAfter(3_000));
  });

  it('comes back at the renewal when it falls before the next paced look', () => {
    expect(nextLook('prod/zk', READY, [], deps(), inSeconds(4))).toEqual(requeueAfter(4_000));
    expect(nextLook('prod/zk', READY, [], deps(), inSeconds(60))).toEqual(requeueAfter(10_000));
    expect(nextLook('prod/zk', READY, CHANGED, deps(), inSeconds(2))).toEqual(requeueAfter(2_000));
  });

  it('comes back a second later for a renewal already due, so that a failing issue does not spin', () => {
    expect(nextLook('prod/zk', READY, [], deps(), inSeconds(-30))).toEqual(requeueAfter(1_000));
  });

  it('waits for events with no member to observe, but still comes back at the renewal, within a day at most', () => {
    const waiting = deps();
    expect(nextLook('prod/zk', NOT_OBSERVABLE, [], waiting, undefined)).toEqual(done);
    expect(waiting.released).toEqual(['prod/zk']);
    expect(nextLook('prod/zk', NOT_OBSERVABLE, CHANGED, deps(), undefined)).toEqual(done);
    expect(nextLook('prod/zk', NOT_OBSERVABLE, CHANGED, deps(), inSeconds(90))).toEqual(requeueAfter(90_000));
    expect(nextLook('prod/zk', NOT_OBSERVABLE, [], deps(), inSeconds(90))).toEqual(requeueAfter(90_000));
    expect(nextLook('prod/zk', NOT_OBSERVABLE, [], deps(), inSeconds(30 * 86_400))).toEqual(requeueAfter(86_400_000));
  });
});

describe('blockedRetryMs', () => {
  it.each([
    ['an unusable superuser Secret', new SuperuserSecretInvalidError('mine', 'lacks the key(s) digest'), WATCHED_SECRET_RETRY_MS],
    ['an unusable TLS CA Secret', new TlsCaSecretInvalidError('ca', 'holds no CA certificate valid now'), WATCHED_SECRET_RETRY_MS],
    ['an unusable SASL users Secret', new AuthenticationSecretInvalidError('SASL users', 'users', 'does not exist'), WATCHED_SECRET_RETRY_MS],
    ['cert-manager not installed', new CertManagerMissingError('zk-tls'), ISSUER_RETRY_MS],
    ['a Certificate not issued yet', new CertificateNotIssuedError('zk-tls', 'zk-tls', 'does not exist yet'), ISSUER_RETRY_MS],
  ])('looks again at %s after its own wait', (_case, error, expected) => {
    expect(blockedRetryMs(error)).toBe(expected);
  });
});
