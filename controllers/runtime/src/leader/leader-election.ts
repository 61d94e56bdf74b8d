// Lease-based leader election (coordination.k8s.io/v1), with client-go's semantics and defaults.
//
// A candidate takes the Lease when it is free, released (no holder) or not renewed for leaseDuration as
// observed on this candidate's own clock (so clock skew between machines does not matter). The leader
// renews every retryPeriod and gives up when it could not renew for renewDeadline. On graceful stop the
// leader releases the Lease (no holder, 1 s duration) so another candidate takes over at once. Like client-go since
// 1.30, the leader renews with one optimistic update of the Lease it last wrote, and reads it first only when that
// update fails (someone else wrote it: the resourceVersion precondition refuses).
import type { Counter, Gauge, Histogram } from 'prom-client';
import type { Logger } from 'pino';
import { isApiError, type KubeClient } from '../kube/client.js';
import { collectionPath, coreResources, objectPath } from '../kube/resource.js';
import { microTime } from '../kube/micro-time.js';
import { systemClock, type Clock } from '../queue/clock.js';
import { jittered } from '../retry/backoff.js';
import { leaseSchema, type Lease, type LeaseSpec } from './lease.js';

export interface LeaderElectionOptions {
  readonly client: Pick<KubeClient, 'request'>;
  readonly namespace: string;
  /** The Lease's name, shared by every replica of one controller. */
  readonly name: string;
  /** This replica's unique identity (e.g. pod name plus a random suffix). */
  readonly identity: string;
  readonly logger: Logger;
  /** Default 15 s. */
  readonly leaseDurationMs?: number;
  /** Default 10 s. */
  readonly renewDeadlineMs?: number;
  /** Default 2 s. */
  readonly retryPeriodMs?: number;
  readonly leaderGauge?: Gauge<'name'>;
  /** Observes the time between successful renewals: how late the renew loop runs under load. */
  readonly renewInterval?: Histogram<'name'>;
  /** Counts renewals that had to read the Lease first. */
  readonly slowpath?: Counter<'name'>;
  readonly clock?: Clock;
}

export interface LeadershipCallbacks {
  readonly onStartedLeading: () => void;
  readonly onStoppedLeading: () => void;
}

/** How `run` ended: stopped by its signal (lease released), or leadership lost (the process should exit). */
export type ElectionEnd = 'stopped' | 'lost';

export class LeaderElector {
  private readonly clock: Clock;
  private readonly log: Logger;
  private readonly leaseDurationMs: number;
  private readonly renewDeadlineMs: number;
  private readonly retryPeriodMs: number;
  /** The last Lease record seen and when this candidate saw it change. */
  private observed: { record: string; at: number } = { record: '', at: 0 };
  /** The Lease as this candidate last wrote it, for the optimistic renewal. */
  private written: Lease | undefined;
  private leading = false;

  constructor(private readonly options: LeaderElectionOptions) {
    this.clock = options.clock ?? systemClock;
    this.leaseDurationMs = options.leaseDurationMs ?? 15_000;
    this.renewDeadlineMs = options.renewDeadlineMs ?? 10_000;
    this.retryPeriodMs = options.retryPeriodMs ?? 2_000;
    this.log = options.logger.child({ lease: `${options.namespace}/${options.name}`, identity: options.identity });
    options.leaderGauge?.set({ name: options.name }, 0);
  }

  isLeader(): boolean {
    return this.leading;
  }

  /** Campaigns, leads while it can, and returns when `signal` aborts (after releasing) or leadership is lost. */
  async run(signal: AbortSignal, callbacks: LeadershipCallbacks): Promise<ElectionEnd> {
    this.log.info('campaigning for leadership');
    while (!(await this.tryAcquireOrRenew(this.retryPeriodMs))) {
      // Stretched by up to 20% so candidates do not try in step (client-go stretches it by up to 120%, JitterFactor 1.2;
      // the shorter wait takes a Lease that was let go sooner).
      await this.clock.sleep(jittered(this.retryPeriodMs, 0.2), signal);
      if (signal.aborted) return 'stopped';
    }
    this.setLeading(true);
    callbacks.onStartedLeading();
    const end = await this.renewUntilStoppedOrLost(signal);
    if (end === 'stopped') await this.release();
    this.setLeading(false);
    callbacks.onStoppedLeading();
    return end;
  }

  private async renewUntilStoppedOrLost(signal: AbortSignal): Promise<ElectionEnd> {
    let lastRenew = this.clock.now();
    for (;;) {
      await this.clock.sleep(this.retryPeriodMs, signal);
      if (signal.aborted) return 'stopped';
      const remaining = this.renewDeadlineMs - (this.clock.now() - lastRenew);
      if (await this.tryAcquireOrRenew(Math.max(remaining, 500))) {
        const renewed = this.clock.now();
        this.options.renewInterval?.observe({ name: this.options.name }, (renewed - lastRenew) / 1000);
        lastRenew = renewed;
      } else if (this.clock.now() - lastRenew >= this.renewDeadlineMs) {
        this.log.error({ renewDeadlineMs: this.renewDeadlineMs }, 'could not renew the lease in time; leadership lost');
        return 'lost';
      }
    }
  }

  private setLeading(leading: boolean): void {
    this.leading = leading;
    this.options.leaderGauge?.set({ name: this.options.name }, leading ? 1 : 0);
    this.log.info({ leading }, leading ? 'started leading' : 'stopped leading');
  }

  private path(): string {
    return objectPath(coreResources.lease, { namespace: this.options.namespace, name: this.options.name });
  }

  private async tryAcquireOrRenew(timeoutMs: number): Promise<boolean> {
    const abort = new AbortController();
    // A deadline on the request, not a wait: the clock's timer aborts it, so tests' fake timers move it too.
    const timer = this.clock.setTimeout(() => abort.abort(), timeoutMs);
    try {
      return await this.acquireOrRenew(abort.signal);
    } catch (error) {
      this.log.warn({ err: error }, 'lease request failed');
      return false;
    } finally {
      this.clock.clearTimeout(timer);
    }
  }

  private async acquireOrRenew(signal: AbortSignal): Promise<boolean> {
    const now = this.clock.now();
    if (this.leading && this.written !== undefined) {
      const renewed = await this.renewOptimistically(this.written, now, signal);
      if (renewed) return true;
      this.options.slowpath?.inc({ name: this.options.name });
    }
    return this.acquireOrRenewAfterReading(now, signal);
  }

  /** client-go's slow path: read the Lease, then take it if free or expired, or renew it if held. */
  private async acquireOrRenewAfterReading(now: number, signal: AbortSignal): Promise<boolean> {
    let lease: Lease;
    try {
      lease = leaseSchema.parse(await this.options.client.request('GET', this.path(), { signal }));
    } catch (error) {
      if (!isApiError(error, 404)) throw error;
      return this.create(now, signal);
    }
    const spec: LeaseSpec = lease.spec ?? {};
    const holder = spec.holderIdentity ?? '';
    const record = `${holder}|${spec.renewTime ?? ''}|${lease.metadata.resourceVersion ?? ''}`;
    if (record !== this.observed.record) this.observed = { record, at: now };
    const durationMs = (spec.leaseDurationSeconds ?? this.leaseDurationMs / 1000) * 1000;
    if (holder !== '' && holder !== this.options.identity && this.observed.at + durationMs > now) return false;

    const takingOver = holder !== this.options.identity;
    const next: LeaseSpec = {
      ...spec,
      holderIdentity: this.options.identity,
      leaseDurationSeconds: Math.ceil(this.leaseDurationMs / 1000),
      acquireTime: takingOver ? microTime(now) : spec.acquireTime,
      renewTime: microTime(now),
      leaseTransitions: (spec.leaseTransitions ?? 0) + (takingOver ? 1 : 0),
    };
    return this.write('PUT', this.path(), { ...lease, spec: next }, now, signal);
  }

  /** One update of the Lease as last written, with its resourceVersion: refused if anyone wrote it since. */
  private async renewOptimistically(lease: Lease, now: number, signal: AbortSignal): Promise<boolean> {
    try {
      return await this.write('PUT', this.path(), { ...lease, spec: { ...lease.spec, renewTime: microTime(now) } }, now, signal);
    } catch (error) {
      if (signal.aborted) throw error;
      this.log.debug({ err: error }, 'optimistic lease renewal failed; reading the lease');
      return false;
    }
  }

  private create(now: number, signal: AbortSignal): Promise<boolean> {
    const lease = {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: this.options.name, namespace: this.options.namespace },
      spec: {
        holderIdentity: this.options.identity,
        leaseDurationSeconds: Math.ceil(this.leaseDurationMs / 1000),
        acquireTime: microTime(now),
        renewTime: microTime(now),
        leaseTransitions: 0,
      },
    };
    return this.write('POST', collectionPath(coreResources.lease, this.options.namespace), lease, now, signal);
  }

  /** Writes the Lease; a 409 (someone else wrote first) means "not acquired". */
  private async write(verb: 'PUT' | 'POST', path: string, body: unknown, now: number, signal: AbortSignal): Promise<boolean> {
    try {
      const written = leaseSchema.parse(await this.options.client.request(verb, path, { body, signal }));
      this.written = written;
      const spec = written.spec ?? {};
      this.observed = {
        record: `${spec.holderIdentity ?? ''}|${spec.renewTime ?? ''}|${written.metadata.resourceVersion ?? ''}`,
        at: now,
      };
      return true;
    } catch (error) {
      this.written = undefined;
      if (isApiError(error, 409)) return false;
      throw error;
    }
  }

  /** Gives the Lease up (like client-go's ReleaseOnCancel) if this candidate still holds it. */
  private async release(): Promise<void> {
    try {
      const lease = leaseSchema.parse(await this.options.client.request('GET', this.path()));
      const spec: LeaseSpec = lease.spec ?? {};
      if (spec.holderIdentity !== this.options.identity) return;
      const now = microTime(this.clock.now());
      const released: LeaseSpec = { ...spec, holderIdentity: '', leaseDurationSeconds: 1, renewTime: now, acquireTime: now };
      await this.options.client.request('PUT', this.path(), { body: { ...lease, spec: released } });
      this.log.info('released the lease');
    } catch (error) {
      this.log.warn({ err: error }, 'could not release the lease; others take over when it expires');
    }
  }
}
