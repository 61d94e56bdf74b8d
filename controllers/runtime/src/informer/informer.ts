// An informer: a local cache of one kind, kept by a reflector's list and watch (reflector.ts), and the events that
// change it. Each informer parses what it caches with its own schema and transform, so informers of one process can
// share a reflector (reflector-pool.ts) while each keeps what its controller reads.
//
// Updates that carry an unchanged resourceVersion are not sent. After a relist, objects that disappeared while the
// watch was down are sent as deletions, so listeners converge to the server's state.
import type { z } from 'zod';
import type { Logger } from 'pino';
import type { KubeClient } from '../kube/client.js';
import { resourceName, type ResourceType } from '../kube/resource.js';
import { formatKey, keyOf, type KubeObject } from '../kube/object.js';
import type { ObjectTransform } from './kept-fields.js';
import { systemClock, type Clock } from '../queue/clock.js';
import type { RuntimeMetrics } from '../metrics/runtime-metrics.js';
import { Store, type Lister } from './store.js';
import type { InformerEvent, InformerListener } from './informer-event.js';
import { Reflector, type RawObject, type ReflectorOptions, type ReflectorSink } from './reflector.js';
import type { ReflectorPool } from './reflector-pool.js';
import { ObjectParser } from './object-parser.js';

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
   * The cached objects carry the resource's apiVersion and kind. On a shared reflector that another informer needs
   * whole objects from, the whole objects come, and the transform keeps what this one reads.
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
  /** Where to find a reflector of the same list and watch that other informers of the process use; its own when omitted. */
  readonly reflectors?: ReflectorPool;
}

export class Informer<T extends KubeObject> {
  readonly resource: ResourceType;
  private readonly store = new Store<T>();
  private readonly listeners: InformerListener<T>[] = [];
  private readonly clock: Clock;
  private readonly log: Logger;
  private readonly name: string;
  private readonly reflector: Reflector;
  private readonly parser: ObjectParser<T>;
  private readonly sink: ReflectorSink;
  private synced = false;
  private syncWaiters: Array<() => void> = [];
  private running: { abort: AbortController; resync: Promise<void> } | undefined;

  constructor(private readonly options: InformerOptions<T>) {
    this.resource = options.resource;
    this.clock = options.clock ?? systemClock;
    this.name = resourceName(options.resource);
    this.log = options.logger.child({ informer: this.name, namespace: options.namespace, labelSelector: options.labelSelector, metadataOnly: options.metadataOnly });
    // What the list and watch need, and no more: a shared reflector outlives the informer that made it.
    const { resource, namespace, labelSelector, fieldSelector, metadataOnly, watchdogMs, backoff, pageSize, clock } = options;
    const reflectorOptions: ReflectorOptions = { resource, namespace, labelSelector, fieldSelector, metadataOnly, watchdogMs, backoff, pageSize, clock, logger: this.log };
    this.reflector = options.reflectors?.reflectorFor(reflectorOptions) ?? new Reflector(reflectorOptions);
    this.parser = options.reflectors?.parserFor(resource, options.schema, options.transform) ?? new ObjectParser(resource, options.schema, options.transform);
    this.sink = {
      client: options.client,
      replaced: (objects) => this.replace(objects),
      changed: (type, object) => this.change(type, object),
      restarted: (reason) => this.options.metrics?.informerRestarts.inc({ resource: this.name, reason }),
    };
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
    return this.reflector.lastResourceVersion;
  }

  start(): void {
    if (this.running !== undefined) return;
    const abort = new AbortController();
    this.reflector.attach(this.sink);
    const resync = this.options.resyncMs === undefined ? Promise.resolve() : this.resyncLoop(this.options.resyncMs, abort.signal);
    this.running = { abort, resync };
  }

  async stop(): Promise<void> {
    const running = this.running;
    if (running === undefined) return;
    running.abort.abort();
    await Promise.all([this.reflector.detach(this.sink), running.resync]);
    this.running = undefined;
  }

  private replace(items: readonly RawObject[]): void {
    const objects = items.flatMap((item) => this.parse(item));
    const events: InformerEvent<T>[] = [];
    for (const object of objects) {
      const old = this.store.get(keyOf(object));
      if (old === undefined) events.push({ type: 'added', object });
      else if (old.metadata.resourceVersion !== object.metadata.resourceVersion) events.push({ type: 'updated', object, old });
    }
    for (const object of this.store.replace(objects)) events.push({ type: 'deleted', object });
    this.log.debug({ objects: objects.length, changes: events.length }, 'cache replaced by a list');
    events.forEach((event) => this.emit(event));
    if (!this.synced) {
      this.synced = true;
      this.syncWaiters.splice(0).forEach((resolve) => resolve());
    }
  }

  private change(type: string, raw: RawObject): void {
    const [object] = this.parse(raw);
    if (object === undefined) return;
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

  private parse(object: RawObject): T[] {
    // The kind's schema is the one parse an object gets: the zod parses of the watch line, the object, its metadata and
    // its resourceVersion, which the reflector's plain checks replaced, cost two thirds as much again (a profile of 100
    // ensembles applied at once).
    const parsed = this.parser.parse(object);
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
