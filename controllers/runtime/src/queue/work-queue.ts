// A level-based work queue: de-duplicates keys, hands one key to one worker at a time, delays and backs off.
//
// Guarantees (as client-go's workqueue): a key is never processed by two workers at once; a key added while
// it is processed is processed again afterwards; a key queued several times is processed once. After
// `shutDown()` no key is handed out and `drained()` resolves once the keys in flight are `done`.
import { KeyBackoff, type BackoffOptions } from './backoff.js';
import { systemClock, type Clock } from './clock.js';
import type { QueueMetrics } from '../metrics/runtime-metrics.js';

export interface WorkQueueOptions {
  readonly name: string;
  readonly clock?: Clock;
  readonly backoff?: BackoffOptions;
  readonly metrics?: QueueMetrics;
}

export class WorkQueue {
  readonly name: string;
  private readonly clock: Clock;
  private readonly backoff: KeyBackoff;
  private readonly metrics: QueueMetrics | undefined;
  private readonly queue: string[] = [];
  /** Keys waiting to be processed (queued, or re-added while processing). */
  private readonly dirty = new Set<string>();
  private readonly processing = new Set<string>();
  private readonly addedAt = new Map<string, number>();
  private readonly startedAt = new Map<string, number>();
  private readonly delayed = new Map<string, { at: number; timer: ReturnType<typeof setTimeout> }>();
  private readonly waiters: Array<(key: string | undefined) => void> = [];
  private readonly drainWaiters: Array<() => void> = [];
  private shuttingDown = false;
  private handOffScheduled = false;

  constructor(options: WorkQueueOptions) {
    this.name = options.name;
    this.clock = options.clock ?? systemClock;
    this.backoff = new KeyBackoff(options.backoff);
    this.metrics = options.metrics;
    // A queue that never had a key still shows its depth, so a dashboard and an alert see it from the start.
    this.metrics?.depth.set({ name: this.name }, 0);
  }

  add(key: string): void {
    if (this.shuttingDown || this.dirty.has(key)) return;
    this.metrics?.adds.inc({ name: this.name });
    this.dirty.add(key);
    this.addedAt.set(key, this.clock.now());
    if (this.processing.has(key)) return;
    this.enqueue(key);
  }

  /** Adds `key` after `ms`; if it is already waiting for an earlier time, that earlier time wins. */
  addAfter(key: string, ms: number): void {
    if (this.shuttingDown) return;
    if (ms <= 0) {
      this.add(key);
      return;
    }
    const at = this.clock.now() + ms;
    const existing = this.delayed.get(key);
    if (existing !== undefined) {
      if (existing.at <= at) return;
      this.clock.clearTimeout(existing.timer);
    }
    // A timer, not a pause: nothing waits on it, and an earlier addAfter of the key replaces it.
    const timer = this.clock.setTimeout(() => {
      this.delayed.delete(key);
      this.add(key);
    }, ms);
    this.delayed.set(key, { at, timer });
  }

  /** Adds `key` after its backoff delay, which doubles with each call until `forget(key)`. */
  addRateLimited(key: string): void {
    this.metrics?.retries.inc({ name: this.name });
    this.addAfter(key, this.backoff.next(key));
  }

  forget(key: string): void {
    this.backoff.forget(key);
  }

  failuresOf(key: string): number {
    return this.backoff.failuresOf(key);
  }

  /** The next key to process, or undefined once the queue is shut down. Call `done(key)` when finished. */
  get(): Promise<string | undefined> {
    if (this.shuttingDown) return Promise.resolve(undefined);
    const key = this.queue.shift();
    if (key !== undefined) return Promise.resolve(this.start(key));
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  done(key: string): void {
    const started = this.startedAt.get(key);
    if (started !== undefined) this.metrics?.workDuration.observe({ name: this.name }, (this.clock.now() - started) / 1000);
    this.startedAt.delete(key);
    this.processing.delete(key);
    if (this.dirty.has(key) && !this.shuttingDown) this.enqueue(key);
    if (this.processing.size === 0) this.drainWaiters.splice(0).forEach((resolve) => resolve());
  }

  /** Stops handing out keys and drops delayed ones; keys in flight may still finish with `done`. */
  shutDown(): void {
    this.shuttingDown = true;
    for (const { timer } of this.delayed.values()) this.clock.clearTimeout(timer);
    this.delayed.clear();
    this.waiters.splice(0).forEach((resolve) => resolve(undefined));
  }

  /** Resolves when no key is being processed. */
  drained(): Promise<void> {
    if (this.processing.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.drainWaiters.push(resolve));
  }

  get length(): number {
    return this.queue.length;
  }

  get inFlight(): number {
    return this.processing.size;
  }

  isShuttingDown(): boolean {
    return this.shuttingDown;
  }

  private enqueue(key: string): void {
    this.queue.push(key);
    this.metrics?.depth.set({ name: this.name }, this.queue.length);
    // Waiting workers take keys once this turn's adds are in, so the adds merge as queued keys do: an update's old and
    // new object mapped to one key are one reconcile, not a second one queued behind the first.
    if (this.waiters.length > 0 && !this.handOffScheduled) {
      this.handOffScheduled = true;
      queueMicrotask(() => this.handOff());
    }
  }

  private handOff(): void {
    this.handOffScheduled = false;
    while (!this.shuttingDown && this.waiters.length > 0 && this.queue.length > 0) {
      const waiter = this.waiters.shift();
      const key = this.queue.shift();
      if (waiter === undefined || key === undefined) return;
      waiter(this.start(key));
    }
  }

  private start(key: string): string {
    this.metrics?.depth.set({ name: this.name }, this.queue.length);
    const added = this.addedAt.get(key);
    if (added !== undefined) this.metrics?.queueDuration.observe({ name: this.name }, (this.clock.now() - added) / 1000);
    this.addedAt.delete(key);
    this.dirty.delete(key);
    this.processing.add(key);
    this.startedAt.set(key, this.clock.now());
    return key;
  }
}
