// The reconcile loop: workers take keys from the queue, call the reconciler, and act on its result.
//
// Success forgets the key's backoff; requeueAfter adds the key again after the delay; a thrown error
// re-adds it with per-key exponential backoff, unless it says the object's namespace is being deleted: then the
// namespace's keys wait a few seconds instead of repeating refused writes, until an object is created there again
// (terminating-namespaces.ts).
// `stop()` stops handing out keys and waits for the reconciles in flight.
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { isNamespaceTerminating } from '../kube/client.js';
import { formatKey, parseKey, type KubeObject, type ObjectKey } from '../kube/object.js';
import type { BackoffOptions } from '../queue/backoff.js';
import { systemClock, type Clock } from '../queue/clock.js';
import { WorkQueue } from '../queue/work-queue.js';
import { TerminatingNamespaces } from './terminating-namespaces.js';
import type { RuntimeMetrics } from '../metrics/runtime-metrics.js';
import type { ReconcileResult, Reconciler } from './reconciler.js';

export interface ControllerOptions {
  readonly name: string;
  readonly reconciler: Reconciler;
  readonly logger: Logger;
  readonly metrics?: Pick<RuntimeMetrics, 'queue' | 'reconcile'>;
  /** Default 1. */
  readonly maxConcurrentReconciles?: number;
  readonly backoff?: BackoffOptions;
  readonly clock?: Clock;
}

const OUTCOMES = ['success', 'requeue_after', 'error'] as const;
type Outcome = (typeof OUTCOMES)[number];

export class Controller {
  readonly name: string;
  private readonly queue: WorkQueue;
  private readonly log: Logger;
  private readonly stopping = new AbortController();
  private workers: Promise<void>[] = [];
  private stopped: Promise<void> | undefined;
  private readonly terminating: TerminatingNamespaces;

  constructor(private readonly options: ControllerOptions) {
    this.name = options.name;
    this.log = options.logger.child({ controller: options.name });
    this.terminating = new TerminatingNamespaces(options.clock ?? systemClock);
    this.queue = new WorkQueue({
      name: options.name,
      backoff: options.backoff,
      metrics: options.metrics?.queue,
      ...(options.clock === undefined ? {} : { clock: options.clock }),
    });
  }

  /** Asks for a reconcile of `key`; safe from any source (informers, the NATS bus, timers). */
  enqueue(key: ObjectKey): void {
    this.queue.add(formatKey(key));
  }

  /** An object its informers saw created: one created after a namespace refused a write shows the namespace was made again. */
  sawCreated(object: KubeObject): void {
    const { namespace, creationTimestamp } = object.metadata;
    if (namespace !== undefined && creationTimestamp !== undefined) this.terminating.created(namespace, Date.parse(creationTimestamp));
  }

  start(): void {
    if (this.workers.length > 0) return;
    const count = this.options.maxConcurrentReconciles ?? 1;
    this.initialiseMetrics(count);
    this.log.info({ workers: count }, 'starting workers');
    this.workers = Array.from({ length: count }, () => this.work());
  }

  /**
   * As controller-runtime does: every result and error series exists at 0 from the start, so rate() and alerts on them
   * work before the first failure instead of seeing no series at all.
   */
  private initialiseMetrics(workers: number): void {
    const metrics = this.options.metrics?.reconcile;
    if (metrics === undefined) return;
    const labels = { controller: this.name };
    metrics.maxConcurrent.set(labels, workers);
    metrics.activeWorkers.set(labels, 0);
    metrics.errors.inc(labels, 0);
    for (const result of OUTCOMES) metrics.total.inc({ ...labels, result }, 0);
  }

  /** Stops taking keys, lets reconciles in flight finish, and resolves when they have. */
  stop(): Promise<void> {
    this.stopped ??= this.drain();
    return this.stopped;
  }

  private async drain(): Promise<void> {
    this.queue.shutDown();
    this.stopping.abort();
    await Promise.all(this.workers);
    await this.queue.drained();
    this.log.info('stopped');
  }

  /** Whether a key besides the one a reconcile holds is being reconciled or waits in the queue. */
  private readonly othersPending = (): boolean => this.queue.inFlight > 1 || this.queue.length > 0;

  get queueLength(): number {
    return this.queue.length;
  }

  private async work(): Promise<void> {
    for (let key = await this.queue.get(); key !== undefined; key = await this.queue.get()) {
      await this.reconcile(key);
    }
  }

  private async reconcile(key: string): Promise<void> {
    const waitMs = this.terminating.waitMs(parseKey(key).namespace);
    if (waitMs > 0) {
      this.queue.addAfter(key, waitMs);
      this.queue.done(key);
      this.options.metrics?.reconcile.total.inc({ controller: this.name, result: 'requeue_after' });
      return;
    }
    const reconcileId = randomUUID();
    const log = this.log.child({ object: key, reconcileID: reconcileId });
    const labels = { controller: this.name };
    const endTimer = this.options.metrics?.reconcile.time.startTimer(labels);
    this.options.metrics?.reconcile.activeWorkers.inc(labels);
    let outcome: Outcome;
    try {
      const result = await this.options.reconciler(parseKey(key), { log, reconcileId, signal: this.stopping.signal, othersPending: this.othersPending });
      outcome = this.applyResult(key, result);
      log.debug({ result }, 'reconciled');
    } catch (error) {
      outcome = this.applyError(key, error, log);
    } finally {
      this.options.metrics?.reconcile.activeWorkers.dec(labels);
      endTimer?.();
      this.queue.done(key);
    }
    this.options.metrics?.reconcile.total.inc({ ...labels, result: outcome });
  }

  /** A write refused because the namespace is being deleted holds the namespace's keys back; any other error backs off. */
  private applyError(key: string, error: unknown, log: Logger): Outcome {
    if (isNamespaceTerminating(error)) {
      this.queue.forget(key);
      const namespace = parseKey(key).namespace;
      this.terminating.mark(namespace);
      this.queue.addAfter(key, this.terminating.waitMs(namespace));
      log.info('namespace is being deleted; its objects wait before their next reconcile');
      return 'requeue_after';
    }
    this.options.metrics?.reconcile.errors.inc({ controller: this.name });
    this.queue.addRateLimited(key);
    log.error({ err: error, failures: this.queue.failuresOf(key) }, 'reconcile failed; retrying with backoff');
    return 'error';
  }

  private applyResult(key: string, result: ReconcileResult): Outcome {
    this.queue.forget(key);
    switch (result.kind) {
      case 'done':
        return 'success';
      case 'requeueAfter':
        this.queue.addAfter(key, result.ms);
        return 'requeue_after';
      default: {
        const unknown: never = result;
        throw new Error(`unknown reconcile result ${JSON.stringify(unknown)}`);
      }
    }
  }
}
