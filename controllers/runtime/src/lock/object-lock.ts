// A lock on one object for one operation at a time, kept in a Lease beside the object, named by the callers that
// lock it (the lock knows nothing of what they lock it for).
//
// # Guarantees
// - At most one holder at a time, as the apiserver sees it: every write is a create or an update
//   conditioned on the resourceVersion just read, decided by `decideLock` on that state. A lost race (409)
//   is re-read and retried once; if another holder won, the caller is told it is busy.
// - The holder identity names the OPERATION (e.g. `scale/<trait>`), not the process: a controller restarted
//   after a crash, or its other replica after a leader change, holds its lock again at once, while a
//   different operation sees it busy until it is released or expires.
// - Another holder takes the lock over only once it expired (renewTime + leaseDurationSeconds passed); the
//   takeover is logged with the previous holder. `release` hands the lock over at once, and only the
//   holder can release it.
// - The Lease has an owner reference to the locked object, so it is garbage-collected with it.
//
// # Assumptions
// - The holder renews (`tryAcquire` or `renew`) well within its lease duration while the operation runs:
//   at each reconcile, requeueing sooner than the duration while it holds the lock.
// - Expiry compares the Lease's renewTime (the writer's clock) with this process's clock. Unlike leader
//   election, which times a lease by watching it, a lock must be judged by a process that just started; so
//   controllers' clocks must agree to well within the lease duration (true inside one cluster with NTP).
// - Two processes acting for the same operation both hold the lock: the operation's own leader election
//   keeps them from acting at once.
//
// # Caveats
// - A Lease cannot fence writes: a holder paused for longer than its duration may act after losing the lock.
//   Renew right before each disruptive step, and stop when `renew` says the lock is no longer held.
// - If the object is deleted and recreated under the same name before the old Lease is collected, the Lease
//   (and its holder) carries over; the new object's owner reference is added, the collector prunes the old.
import type { Logger } from 'pino';
import { isApiError, type KubeClient } from '../kube/client.js';
import type { KubeObject } from '../kube/object.js';
import { apiVersionOf, collectionPath, coreResources, objectPath, type ResourceType } from '../kube/resource.js';
import { leaseSchema, type Lease } from '../leader/lease.js';
import { retryOnConflict } from '../apply/conflict-retry.js';
import { systemClock, type Clock } from '../queue/clock.js';
import { decideLock, expiryOf, lockRecordOf, type BusyLock, type LockDecision } from './decision.js';
import { ObjectLockError, type LockStep } from './errors.js';
import { createdLease, heldLease, lockOperationAnnotation, releasedLease, renewedLease, type LockOwner } from './lock-lease.js';

export interface ObjectLockOptions {
  readonly client: Pick<KubeClient, 'request'>;
  /** The locked object's namespace (the Lease lives there too). */
  readonly namespace: string;
  /** The locked object; the Lease is owned by it. */
  readonly owner: LockOwner;
  /** The Lease's name: every caller that locks the object for the same purpose names it alike. */
  readonly leaseName: string;
  readonly logger: Logger;
  readonly clock?: Clock;
}

export interface AcquireOptions {
  /** How long the lock stays held without a renewal; whole seconds. */
  readonly leaseDurationSeconds: number;
  /** What the holder is doing, shown in the Lease's annotation. */
  readonly operation: string;
}

/** Someone else's lock, with what it is doing when the holder said so. */
export type BusyLockInfo = BusyLock & { readonly operation?: string };

/** The answer to `tryAcquire`: held, or busy with another holder until `expiresAt` (unless renewed). */
export type LockResult = { readonly held: true } | ({ readonly held: false } & BusyLockInfo);

/** What `inspect` sees: nobody holds the lock, or someone does (`expired` judged on this process's clock). */
export type LockState = { readonly kind: 'free' } | ({ readonly kind: 'held'; readonly expired: boolean } & BusyLockInfo);

export class ObjectLock {
  readonly leaseName: string;
  private readonly clock: Clock;
  private readonly log: Logger;

  constructor(private readonly options: ObjectLockOptions) {
    this.leaseName = options.leaseName;
    this.clock = options.clock ?? systemClock;
    this.log = options.logger.child({ lock: `${options.namespace}/${this.leaseName}` });
  }

  /** The lock `leaseName` on `object`, an object of `resource`: its Lease sits in the object's namespace, owned by it. */
  static on(resource: ResourceType, object: KubeObject, leaseName: string, options: Pick<ObjectLockOptions, 'client' | 'logger' | 'clock'>): ObjectLock {
    const { name, namespace = '', uid = '' } = object.metadata;
    return new ObjectLock({ ...options, namespace, owner: { apiVersion: apiVersionOf(resource), kind: resource.kind, name, uid }, leaseName });
  }

  /** Takes the lock for `holder`, or renews it if `holder` has it; reports who has it otherwise. */
  tryAcquire(holder: string, options: AcquireOptions): Promise<LockResult> {
    return this.step('acquire', holder, async () => {
      const lease = await this.read();
      const now = this.clock.now();
      const decision = decideLock(lease && lockRecordOf(lease), holder, now);
      if (decision.kind === 'busy') {
        this.log.debug({ holder, busyWith: decision.holder, expiresAt: decision.expiresAt }, 'lock busy');
        return { held: false, holder: decision.holder, since: decision.since, expiresAt: decision.expiresAt, ...operationOf(lease) };
      }
      const request = { holder, durationSeconds: options.leaseDurationSeconds, operation: options.operation, now };
      if (lease === undefined) {
        const created = createdLease({ namespace: this.options.namespace, name: this.leaseName }, this.options.owner, request);
        await this.options.client.request('POST', collectionPath(coreResources.lease, this.options.namespace), { body: created });
      } else {
        await this.options.client.request('PUT', this.path(), { body: heldLease(lease, this.options.owner, request) });
      }
      this.logHeld(decision, holder, options.operation);
      return { held: true };
    });
  }

  /** Extends the lock if `holder` still has it; false (logged) when it does not: the operation must stop. */
  renew(holder: string): Promise<boolean> {
    return this.rewriteIfHeld('renew', holder, (lease) => renewedLease(lease, this.options.owner, this.clock.now()));
  }

  /** Gives the lock up if `holder` has it, so the next operation can take it at once; false if it did not. */
  release(holder: string): Promise<boolean> {
    return this.rewriteIfHeld('release', holder, releasedLease);
  }

  /** Who holds the lock now, read from the apiserver. */
  inspect(): Promise<LockState> {
    return this.step('inspect', undefined, async () => {
      const lease = await this.read();
      const record = lease && lockRecordOf(lease);
      if (record?.holder === undefined || record.holder === '') return { kind: 'free' };
      const busy = expiryOf(record);
      return { kind: 'held', expired: this.clock.now() >= busy.expiresAt.getTime(), ...busy, ...operationOf(lease) };
    });
  }

  private logHeld(decision: Exclude<LockDecision, { kind: 'busy' }>, holder: string, operation: string): void {
    switch (decision.kind) {
      case 'create':
      case 'acquire':
        this.log.info({ holder, operation }, 'lock acquired');
        return;
      case 'renew':
        this.log.debug({ holder }, 'lock renewed');
        return;
      case 'takeover':
        this.log.warn(
          { holder, operation, previousHolder: decision.previous.holder, expiredAt: decision.previous.expiresAt },
          'lock taken over from an expired holder',
        );
        return;
    }
  }

  /**
   * Writes the Lease `next` makes of it while `holder` has it; false when it does not, which a renewal logs as a
   * warning (the operation must stop) and a release only at debug (there was nothing to give up).
   */
  private rewriteIfHeld(step: 'renew' | 'release', holder: string, next: (lease: Lease) => Lease): Promise<boolean> {
    return this.step(step, holder, async () => {
      const lease = await this.read();
      if (lease?.spec?.holderIdentity !== holder) {
        const heldBy = lease?.spec?.holderIdentity ?? null;
        if (step === 'renew') this.log.warn({ holder, heldBy }, 'lock no longer held; cannot renew');
        else this.log.debug({ holder, heldBy }, 'lock not held by this holder; nothing to release');
        return false;
      }
      await this.options.client.request('PUT', this.path(), { body: next(lease) });
      if (step === 'renew') this.log.debug({ holder }, 'lock renewed');
      else this.log.info({ holder }, 'lock released');
      return true;
    });
  }

  /** Runs one lock step: a lost race is re-read and retried once; failures become ObjectLockError. */
  private async step<R>(step: LockStep, holder: string | undefined, attempt: () => Promise<R>): Promise<R> {
    try {
      return await retryOnConflict(attempt, { attempts: 2, clock: this.clock });
    } catch (error) {
      throw new ObjectLockError(`${this.options.namespace}/${this.leaseName}`, step, holder, { cause: error });
    }
  }

  private path(): string {
    return objectPath(coreResources.lease, { namespace: this.options.namespace, name: this.leaseName });
  }

  /** The Lease, or undefined when it does not exist. */
  private async read(): Promise<Lease | undefined> {
    try {
      return leaseSchema.parse(await this.options.client.request('GET', this.path()));
    } catch (error) {
      if (isApiError(error, 404)) return undefined;
      throw error;
    }
  }
}

function operationOf(lease: Lease | undefined): { operation?: string } {
  const operation = lease?.metadata.annotations?.[lockOperationAnnotation];
  return operation === undefined ? {} : { operation };
}
