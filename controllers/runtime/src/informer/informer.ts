// An informer that survives: list, then watch from the list's resourceVersion into a local cache, forever.
//
// Restarts after any error, when next-attempt.ts says (a backoff, or when the server asked); relists after 410 Gone; a
// watchdog restarts a watch that has been silent (no event, no bookmark) for `watchdogMs`; every restart is counted by
// reason.
// Updates that carry an unchanged resourceVersion are not sent. After a relist, objects that disappeared
// while the watch was down are sent as deletions, so listeners converge to the server's state.
import { z } from 'zod';
import type { Logger } from 'pino';
import { METADATA_LIST_ACCEPT, METADATA_WATCH_ACCEPT, type KubeClient } from '../kube/client.js';
import { apiVersionOf, collectionPath, resourceName, type ResourceType } from '../kube/resource.js';
import { formatKey, keyOf, type KubeObject } from '../kube/object.js';
import { isRecord } from '../kube/json-record.js';
import type { ObjectTransform } from './kept-fields.js';
import { FIRST_ATTEMPT, nextAttempt, type WatchEnd } from './next-attempt.js';
import { systemClock, type Clock } from '../queue/clock.js';
import type { RuntimeMetrics } from '../metrics/runtime-metrics.js';
import { Store, type Lister } from './store.js';
import type { InformerEvent, InformerListener, WatchRestartReason } from './informer-event.js';

export interface InformerOptions<T extends KubeObject> {
  readonly client: Pick<KubeClient, 'request' | 'watch'>;
  readonly resource: ResourceType;
  /** Parses every object at the boundary; objects that do not parse are logged, counted and skipped. */
  readonly schema: z.ZodType<T>;
  readonly logger: Logger;
  /** Limit to one namespace; all namespaces when omitted. */
  readonly namespace?: string;
  readonly labelSelector?: string;
  readonly fieldSelector?: string;
  /**
   * List and watch metadata only (PartialObjectMetadata, as client-go's metadata informer does): the objects' spec,
   * status and data are never sent, so a controller can follow every Secret of a cluster without downloading them.
   * The cached objects carry the resource's apiVersion and kind.
   */
  readonly metadataOnly?: boolean;
  /** Re-sends every cached object this often; off when omitted. */
  readonly resyncMs?: number;
  /** A watch silent for this long is restarted. Default 5 minutes. */
  readonly watchdogMs?: number;
  /** Backoff after errors: `baseMs * 2^n` up to `maxMs`, plus up to 50% jitter. Default 1 s .. 30 s. */
  readonly backoff?: { readonly baseMs?: number; readonly maxMs?: number };
  readonly pageSize?: number;
  readonly metrics?: Pick<RuntimeMetrics, 'informerRestarts' | 'informerInvalidObjects'>;
  readonly clock?: Clock;
  /**
   * Drops what reconciles never read before an object is cached (the cache holds every object of the kind, so this
   * is most of a controller's memory). managedFields are always dropped: no controller reads them.
   */
  readonly transform?: ObjectTransform;
}

const errorCodeSchema = z.object({ statusCode: z.number().optional(), code: z.number().optional() }).loose();

/** The object without `metadata.managedFields`, which server-side apply makes the largest part of most objects. */
export function withoutManagedFields(object: Record<string, unknown>): Record<string, unknown> {
  const metadata = object['metadata'];
  if (!isRecord(metadata) || !('managedFields' in metadata)) return object;
  const { managedFields: _dropped, ...kept } = metadata;
  return { ...object, metadata: kept };
}

const listSchema = z.object({
  metadata: z.object({ resourceVersion: z.string(), continue: z.string().optional() }).loose(),
  items: z.array(z.unknown()).nullable(),
});
const watchStatusSchema = z.object({ code: z.number().optional(), message: z.string().optional() }).loose();

/** An event's `metadata.resourceVersion`, which a bookmark carries alone. */
function resourceVersionOf(raw: unknown): string | undefined {
  const metadata = isRecord(raw) ? raw['metadata'] : undefined;
  const resourceVersion = isRecord(metadata) ? metadata['resourceVersion'] : undefined;
  return typeof resourceVersion === 'string' ? resourceVersion : undefined;
}

function errorCode(error: unknown): number | undefined {
  const parsed = errorCodeSchema.safeParse(error);
  return parsed.success ? (parsed.data.statusCode ?? parsed.data.code) : undefined;
}

function isTimeout(error: unknown): boolean {
  return error instanceof Error && error.name === 'TimeoutError';
}

export class Informer<T extends KubeObject> {
  readonly resource: ResourceType;
  private readonly store = new Store<T>();
  private readonly listeners: InformerListener<T>[] = [];
  private readonly clock: Clock;
  private readonly log: Logger;
  private readonly name: string;
  private readonly accept: { readonly list?: string; readonly watch?: string };
  private resourceVersion = '';
  private synced = false;
  private syncWaiters: Array<() => void> = [];
  private running: { abort: AbortController; done: Promise<void> } | undefined;

  constructor(private readonly options: InformerOptions<T>) {
    this.resource = options.resource;
    this.clock = options.clock ?? systemClock;
    this.name = resourceName(options.resource);
    this.accept = options.metadataOnly === true ? { list: METADATA_LIST_ACCEPT, watch: METADATA_WATCH_ACCEPT } : {};
    this.log = options.logger.child({ informer: this.name, namespace: options.namespace, labelSelector: options.labelSelector, metadataOnly: options.metadataOnly });
  }

  get lister(): Lister<T> {
    return this.store;
  }

  subscribe(listener: InformerListener<T>): void {
    this.listeners.push(listener);
  }

  hasSynced(): boolean {
    return this.synced;
  }

  /** Resolves once the first list is in the cache. */
  waitForSync(): Promise<void> {
    if (this.synced) return Promise.resolve();
    return new Promise((resolve) => this.syncWaiters.push(resolve));
  }

  /** The resourceVersion the next watch starts from ('' before the first list, and after 410 Gone). */
  get lastResourceVersion(): string {
    return this.resourceVersion;
  }

  start(): void {
    if (this.running !== undefined) return;
    const abort = new AbortController();
    const loops = [this.run(abort.signal)];
    if (this.options.resyncMs !== undefined) loops.push(this.resyncLoop(this.options.resyncMs, abort.signal));
    this.running = { abort, done: Promise.all(loops).then(() => undefined) };
  }

  async stop(): Promise<void> {
    const running = this.running;
    if (running === undefined) return;
    running.abort.abort();
    await running.done;
    this.running = undefined;
  }

  private async run(signal: AbortSignal): Promise<void> {
    let attempt = FIRST_ATTEMPT;
    while (!signal.aborted) {
      const { end, watchedAt } = await this.listAndWatch(signal);
      if (end.reason === 'stopped' || signal.aborted) return;
      this.options.metrics?.informerRestarts.inc({ resource: this.name, reason: end.reason satisfies WatchRestartReason });
      if (end.reason === 'expired') this.resourceVersion = '';
      attempt = nextAttempt(end, this.clock.now() - watchedAt, attempt, this.options.backoff);
      if (attempt.kind === 'now') {
        this.log.debug({ reason: end.reason, resourceVersion: this.resourceVersion }, 'restarting watch');
        continue;
      }
      const error = end.reason === 'error' ? end.error : new Error('the watch closed at once');
      if (attempt.kind === 'asked') this.log.info({ err: error, delayMs: attempt.delayMs }, 'list/watch refused for now; retrying when the server asked');
      else this.log.warn({ err: error, failures: attempt.failures, delayMs: attempt.delayMs }, 'list/watch failed; retrying after backoff');
      await this.clock.sleep(attempt.delayMs, signal);
    }
  }

  /** One attempt: a list when there is no resource version to resume from, then one watch; a failure ends it as `error`. */
  private async listAndWatch(signal: AbortSignal): Promise<{ end: WatchEnd; watchedAt: number }> {
    let watchedAt = this.clock.now();
    try {
      if (this.resourceVersion === '') await this.relist(signal);
      watchedAt = this.clock.now();
      return { end: await this.watchOnce(signal), watchedAt };
    } catch (error) {
      return { end: { reason: 'error', received: false, error }, watchedAt };
    }
  }

  private async relist(signal: AbortSignal): Promise<void> {
    const items: unknown[] = [];
    let continueToken: string | undefined;
    let resourceVersion = '';
    do {
      const page = listSchema.parse(
        await this.options.client.request('GET', collectionPath(this.resource, this.options.namespace), {
          query: {
            limit: this.options.pageSize ?? 500,
            continue: continueToken,
            labelSelector: this.options.labelSelector,
            fieldSelector: this.options.fieldSelector,
          },
          accept: this.accept.list,
          signal,
        }),
      );
      items.push(...(page.items ?? []));
      resourceVersion = page.metadata.resourceVersion;
      continueToken = page.metadata.continue === '' ? undefined : page.metadata.continue;
    } while (continueToken !== undefined);

    const objects = items.flatMap((item) => this.parse(item));
    const events: InformerEvent<T>[] = [];
    for (const object of objects) {
      const old = this.store.get(keyOf(object));
      if (old === undefined) events.push({ type: 'added', object });
      else if (old.metadata.resourceVersion !== object.metadata.resourceVersion) events.push({ type: 'updated', object, old });
    }
    for (const object of this.store.replace(objects)) events.push({ type: 'deleted', object });
    this.resourceVersion = resourceVersion;
    this.log.info({ objects: objects.length, resourceVersion, changes: events.length }, 'listed');
    events.forEach((event) => this.emit(event));
    if (!this.synced) {
      this.synced = true;
      this.syncWaiters.splice(0).forEach((resolve) => resolve());
    }
  }

  private watchOnce(signal: AbortSignal): Promise<WatchEnd> {
    const watchdogMs = this.options.watchdogMs ?? 300_000;
    return new Promise((resolve) => {
      let received = false;
      let expired = false;
      let settled = false;
      let request: AbortController | undefined;
      let watchdog: ReturnType<typeof setTimeout> | undefined;
      const finish = (end: WatchEnd): void => {
        if (settled) return;
        settled = true;
        if (watchdog !== undefined) this.clock.clearTimeout(watchdog);
        signal.removeEventListener('abort', onAbort);
        request?.abort();
        resolve(end);
      };
      const armWatchdog = (): void => {
        if (watchdog !== undefined) this.clock.clearTimeout(watchdog);
        // A deadline that every event moves, not a wait: the clock's timer, so tests' fake timers move it too.
        watchdog = this.clock.setTimeout(() => {
          this.log.warn({ watchdogMs }, 'watch silent for too long; restarting it');
          finish({ reason: 'stalled', received });
        }, watchdogMs);
      };
      const onAbort = (): void => finish({ reason: 'stopped', received });
      signal.addEventListener('abort', onAbort, { once: true });
      armWatchdog();
      const query = {
        resourceVersion: this.resourceVersion,
        allowWatchBookmarks: true,
        // The server ends each watch after 5-10 minutes, as client-go's reflector asks, to spread reconnects.
        timeoutSeconds: 300 + Math.floor(Math.random() * 300),
        labelSelector: this.options.labelSelector,
        fieldSelector: this.options.fieldSelector,
      };
      const onEvent = (type: string, raw: unknown): void => {
        if (settled) return;
        armWatchdog();
        if (type === 'ERROR') {
          const status = watchStatusSchema.safeParse(raw);
          if (status.data?.code === 410) expired = true;
          else this.log.warn({ status: status.data }, 'watch reported an error');
          return;
        }
        received = true;
        this.handleWatchEvent(type, raw);
      };
      const onDone = (error: unknown): void => {
        if (expired || errorCode(error) === 410) finish({ reason: 'expired', received });
        else if (error === null || error === undefined || isTimeout(error)) finish({ reason: 'closed', received });
        else finish({ reason: 'error', received, error });
      };
      this.options.client
        .watch(collectionPath(this.resource, this.options.namespace), query, onEvent, onDone, { accept: this.accept.watch })
        .then(
          (controller) => {
            request = controller;
            if (settled) controller.abort();
          },
          (error: unknown) => finish({ reason: 'error', received, error }),
        );
    });
  }

  private handleWatchEvent(type: string, raw: unknown): void {
    const resourceVersion = resourceVersionOf(raw);
    if (type !== 'BOOKMARK') {
      const [object] = this.parse(raw);
      if (object !== undefined) this.apply(type, object);
    }
    if (resourceVersion !== undefined) this.resourceVersion = resourceVersion;
  }

  private apply(type: string, object: T): void {
    switch (type) {
      case 'ADDED':
      case 'MODIFIED': {
        const old = this.store.put(object);
        if (old === undefined) this.emit({ type: 'added', object });
        else if (old.metadata.resourceVersion !== object.metadata.resourceVersion) this.emit({ type: 'updated', object, old });
        return;
      }
      case 'DELETED':
        this.store.remove(object);
        this.emit({ type: 'deleted', object });
        return;
      default:
        this.log.warn({ type }, 'unknown watch event type');
    }
  }

  private parse(raw: unknown): T[] {
    // Plain checks before the kind's schema, the one parse an event gets: the zod parses they replace (the watch line,
    // the object, its metadata, its resourceVersion) cost two thirds as much again as the kind's schema did (a profile
    // of 100 ensembles applied at once).
    const object = withoutManagedFields(isRecord(raw) ? raw : {});
    // List items carry no apiVersion and kind, and metadata-only objects those of PartialObjectMetadata.
    const parsed = this.options.schema.safeParse({
      ...(this.options.transform === undefined ? object : this.options.transform(object)),
      apiVersion: apiVersionOf(this.resource),
      kind: this.resource.kind,
    });
    if (parsed.success) return [parsed.data];
    this.options.metrics?.informerInvalidObjects.inc({ resource: this.name });
    this.log.error({ issues: parsed.error.issues.slice(0, 5) }, 'dropped an object that does not parse');
    return [];
  }

  private emit(event: InformerEvent<T>): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (error) {
        this.log.error({ err: error, event: event.type, object: formatKey(keyOf(event.object)) }, 'informer listener threw');
      }
    }
  }

  private async resyncLoop(periodMs: number, signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      await this.clock.sleep(periodMs, signal);
      if (signal.aborted || !this.synced) continue;
      for (const object of this.store.list()) this.emit({ type: 'resynced', object });
    }
  }
}
