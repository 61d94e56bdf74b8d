// What one reconcile made of the lock its operation needs, as the object's status reports it. Busy and lost look alike
// to the lock (another holder has it); they differ for a person: busy, this operation waits its turn; lost, a step of
// this operation was under way when its lock expired before it was renewed, and another operation took it over.
import { kubernetesTime } from '@zk-oam/apis';
import type { BusyLockInfo, LockResult } from './object-lock.js';

export type LockOutcome =
  | { readonly kind: 'held' }
  /** Not needed now; released if this operation held it. */
  | { readonly kind: 'free' }
  | ({ readonly kind: 'busy' | 'lost' } & BusyLockInfo);

/** `stepInFlight`: a step this operation took under the lock is not finished, so another holder means it lost the lock. */
export function lockOutcomeOf(result: LockResult, stepInFlight: boolean): LockOutcome {
  if (result.held) return { kind: 'held' };
  const { held: _held, ...busy } = result;
  return { kind: stepInFlight ? 'lost' : 'busy', ...busy };
}

/** Who has the lock `lease` now, since when, and what happens next: nothing, until it is free again. */
export function lostLockMessage(lease: string, lock: BusyLockInfo): string {
  const operation = lock.operation === undefined ? '' : ` (${lock.operation})`;
  return (
    `the lock ${lease} expired while a step of this operation was under way, and ${lock.holder}${operation} has held it ` +
    `since ${kubernetesTime(lock.since)}: nothing more is done until it is free again (at ${kubernetesTime(lock.expiresAt)} ` +
    'unless renewed); then the operation goes on from what it observes'
  );
}
