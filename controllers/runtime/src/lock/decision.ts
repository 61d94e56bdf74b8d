// The object lock's decision, as a pure function: given what the Lease says, who asks and the time, what to do.
import type { Lease } from '../leader/lease.js';

/** What the lock reads from its Lease; times are epoch milliseconds. */
export interface LockRecord {
  /** Absent or '' when the lock is free (never taken, or released). */
  readonly holder?: string;
  readonly acquiredAt?: number;
  readonly renewedAt?: number;
  readonly durationSeconds?: number;
}

/** Someone else's lock, as a caller reports it (e.g. in a Blocked condition). */
export interface BusyLock {
  readonly holder: string;
  readonly since: Date;
  readonly expiresAt: Date;
}

export type LockDecision =
  /** No Lease exists: create it, held by the caller. */
  | { readonly kind: 'create' }
  /** The Lease exists and nobody holds it. */
  | { readonly kind: 'acquire' }
  /** The caller already holds it (possibly expired: nobody took it over): renew. */
  | { readonly kind: 'renew' }
  /** Another holder let it expire: take it over. */
  | { readonly kind: 'takeover'; readonly previous: BusyLock }
  /** Another holder holds it and it has not expired. */
  | ({ readonly kind: 'busy' } & BusyLock);

function parseTime(text: string | null | undefined): number | undefined {
  const ms = typeof text === 'string' ? Date.parse(text) : Number.NaN;
  return Number.isNaN(ms) ? undefined : ms;
}

/** The record in a Lease; unparseable times count as absent. */
export function lockRecordOf(lease: Lease): LockRecord {
  const spec = lease.spec ?? {};
  return {
    holder: spec.holderIdentity ?? undefined,
    acquiredAt: parseTime(spec.acquireTime),
    renewedAt: parseTime(spec.renewTime),
    durationSeconds: spec.leaseDurationSeconds ?? undefined,
  };
}

/**
 * When a held record stops protecting its holder. A record without a renew time (written by hand, or
 * corrupted) is treated as already expired, so it can never wedge the object forever.
 */
export function expiryOf(record: LockRecord): BusyLock {
  const renewedAt = record.renewedAt ?? 0;
  const since = record.acquiredAt ?? renewedAt;
  return {
    holder: record.holder ?? '',
    since: new Date(since),
    expiresAt: new Date(renewedAt + (record.durationSeconds ?? 0) * 1000),
  };
}

/** Decides what `holder` may do with the lock at `now`; `record` is undefined when the Lease does not exist. */
export function decideLock(record: LockRecord | undefined, holder: string, now: number): LockDecision {
  if (record === undefined) return { kind: 'create' };
  if (record.holder === undefined || record.holder === '') return { kind: 'acquire' };
  if (record.holder === holder) return { kind: 'renew' };
  const current = expiryOf(record);
  return now >= current.expiresAt.getTime() ? { kind: 'takeover', previous: current } : { kind: 'busy', ...current };
}
