// A reflector lists, then watches from the list's resourceVersion, forever, and hands what the server sent to the
// informers attached to it (client-go's Reflector, without a store of its own). Several informers of one process may
// share it (reflector-pool.ts): the server then sends, and this process decodes, each event once, not once per informer.
//
// Restarts after any error, when next-attempt.ts says (a backoff, or when the server asked); relists after 410 Gone; a
// watchdog restarts a watch that has been silent (no event, no bookmark) for `watchdogMs`. An informer attached after
// the first list gets a list of its own: the reflector lists again for it, and informers already attached see only
// what changed.
import { z } from 'zod';
import type { Logger } from 'pino';
import { METADATA_LIST_ACCEPT, METADATA_WATCH_ACCEPT, type KubeClient } from '../kube/client.js';
import { collectionPath, type ResourceType } from '../kube/resource.js';
import { isRecord } from '../kube/json-record.js';
import { FIRST_ATTEMPT, nextAttempt, type WatchEnd } from './next-attempt.js';
import { systemClock, type Clock } from '../queue/clock.js';
import type { WatchRestartReason } from './informer-event.js';

export type RawObject = Record<string, unknown>;

/** What a reflector feeds: an informer. The objects are shared between sinks and must not be changed. */
export interface ReflectorSink {
  /** Lists and watches as whom this sink acts; a shared reflector asks as its first sink, the next after a refusal. */
  readonly client: Pick<KubeClient, 'request' | 'watch'>;
  /** Every object the server holds, after a list. */
  replaced(objects: readonly RawObject[]): void;
  /** One watch event: ADDED, MODIFIED or DELETED. */
  changed(type: string, object: RawObject): void;
  /** The watch ended and is started again, for `reason`. */
  restarted(reason: WatchRestartReason): void;
}

export interface ReflectorOptions {
  readonly resource: ResourceType;
  readonly logger: Logger;
  /** Limit to one namespace; all namespaces when omitted. */
  readonly namespace?: string;
  readonly labelSelector?: string;
  readonly fieldSelector?: string;
  /** List and watch metadata only (PartialObjectMetadata) until a sink wants whole objects. */
  readonly metadataOnly?: boolean;
  /** A watch silent for this long is restarted. Default 5 minutes. */
  readonly watchdogMs?: number;
  /** Backoff after errors: `baseMs * 2^n` up to `maxMs`, plus up to 50% jitter. Default 1 s .. 30 s. */
  readonly backoff?: { readonly baseMs?: number; readonly maxMs?: number };
  readonly pageSize?: number;
  readonly clock?: Clock;
}

const errorCodeSchema = z.object({ statusCode: z.number().optional(), code: z.number().optional() }).loose();
const listSchema = z.object({
  metadata: z.object({ resourceVersion: z.string(), continue: z.string().optional() }).loose(),
  items: z.array(z.unknown()).nullable(),
});
const watchStatusSchema = z.object({ code: z.number().optional(), message: z.string().optional() }).loose();

/** The object without `metadata.managedFields`, which server-side apply makes the largest part of most objects. */
function withoutManagedFields(object: RawObject): RawObject {
  const metadata = object['metadata'];
  if (!isRecord(metadata) || !('managedFields' in metadata)) return object;
  const { managedFields: _dropped, ...kept } = metadata;
  return { ...object, metadata: kept };
}

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

/** How a watch ended: as the server or the network ended it, or cut short here to list again for a sink. */
type ReflectorWatchEnd = WatchEnd | { readonly reason: 'relist' };

export class Reflector {
  private readonly sinks: ReflectorSink[] = [];
  private readonly clock: Clock;
  private readonly log: Logger;
  private metadataOnly: boolean;
  private resourceVersion = '';
  /** A sink came after the last list, or whole objects are wanted now: list again, ending the watch if one runs. */
  private listWanted = false;
  private listed = false;
  private endWatch: (() => void) | undefined;
  private running: { abort: AbortController; done: Promise<void> } | undefined;

  constructor(private readonly options: ReflectorOptions) {
    this.clock = options.clock ?? systemClock;
    this.metadataOnly = options.metadataOnly === true;
    this.log = options.logger;
  }

  /** The resourceVersion the next watch starts from ('' before the first list, and after 410 Gone). */
  get lastResourceVersion(): string {
    return this.resourceVersion;
  }

  /** Feeds `sink` from now on, starting the reflector if it is the first; it gets a list of its own. */
  attach(sink: ReflectorSink): void {
    this.sinks.push(sink);
    // One stopping for the last sink's detach ends on its own; this sink needs a run that goes on.
    if (this.running === undefined || this.running.abort.signal.aborted) {
      this.start();
      return;
    }
    if (this.listed) this.listAgain();
  }

  /** Stops feeding `sink`; the last sink gone stops the reflector. */
  async detach(sink: ReflectorSink): Promise<void> {
    const index = this.sinks.indexOf(sink);
    if (index >= 0) this.sinks.splice(index, 1);
    if (this.sinks.length > 0 || this.running === undefined) return;
    const running = this.running;
    running.abort.abort();
    await running.done;
    if (this.running === running) this.running = undefined;
  }

  /** Whole objects from now on, for a sink that reads more than metadata: relists if it watched metadata alone. */
  wantWholeObjects(): void {
    if (!this.metadataOnly) return;
    this.metadataOnly = false;
    this.log.info('a sharer reads whole objects: listing and watching them from now on');
    if (this.listed) this.listAgain();
  }

  private listAgain(): void {
    this.listWanted = true;
    this.endWatch?.();
  }

  private start(): void {
    const abort = new AbortController();
    this.resourceVersion = '';
    this.listed = false;
    this.running = { abort, done: this.run(abort.signal) };
  }

  private get client(): Pick<KubeClient, 'request' | 'watch'> {
    const [first] = this.sinks;
    if (first === undefined) throw new Error('a reflector runs only while a sink is attached');
    return first.client;
  }

  private get accept(): { readonly list?: string; readonly watch?: string } {
    return this.metadataOnly ? { list: METADATA_LIST_ACCEPT, watch: METADATA_WATCH_ACCEPT } : {};
  }

  private async run(signal: AbortSignal): Promise<void> {
    let attempt = FIRST_ATTEMPT;
    while (!signal.aborted) {
      const { end, watchedAt } = await this.listAndWatch(signal);
      if (end.reason === 'stopped' || signal.aborted) return;
      if (end.reason === 'relist') continue;
      for (const sink of this.sinks) sink.restarted(end.reason);
      if (end.reason === 'expired') this.resourceVersion = '';
      if (end.reason === 'error') this.askAsNextSinkIfRefused(end.error);
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

  /**
   * A list or watch refused to the sink it asked as (its role changed, its token expired) is asked again as the next
   * sink: each sink may list and watch the kind itself, so one sharer's refusal need not leave the others' caches stale.
   */
  private askAsNextSinkIfRefused(error: unknown): void {
    const code = errorCode(error);
    if ((code !== 401 && code !== 403) || this.sinks.length < 2) return;
    const refused = this.sinks.shift();
    if (refused === undefined) return;
    this.sinks.push(refused);
    this.log.warn({ err: error }, 'list/watch refused to the sharer it asked as; asking as the next one');
  }

  /** One attempt: a list when there is no resource version to resume from, then one watch; a failure ends it as `error`. */
  private async listAndWatch(signal: AbortSignal): Promise<{ end: ReflectorWatchEnd; watchedAt: number }> {
    let watchedAt = this.clock.now();
    try {
      if (this.resourceVersion === '' || this.listWanted) await this.list(signal);
      if (this.listWanted) return { end: { reason: 'relist' }, watchedAt };
      watchedAt = this.clock.now();
      return { end: await this.watchOnce(signal), watchedAt };
    } catch (error) {
      return { end: { reason: 'error', received: false, error }, watchedAt };
    }
  }

  private async list(signal: AbortSignal): Promise<void> {
    const { accept, metadataOnly } = this;
    const items: unknown[] = [];
    let continueToken: string | undefined;
    let resourceVersion = '';
    do {
      const page = listSchema.parse(
        await this.client.request('GET', collectionPath(this.options.resource, this.options.namespace), {
          query: {
            limit: this.options.pageSize ?? 500,
            continue: continueToken,
            labelSelector: this.options.labelSelector,
            fieldSelector: this.options.fieldSelector,
          },
          accept: accept.list,
          signal,
        }),
      );
      items.push(...(page.items ?? []));
      resourceVersion = page.metadata.resourceVersion;
      continueToken = page.metadata.continue === '' ? undefined : page.metadata.continue;
    } while (continueToken !== undefined);
    if (signal.aborted) return;
    // Every sink attached by now gets this list, so none waits for another; one that wants whole objects since the list
    // began waits for the next.
    if (metadataOnly === this.metadataOnly) this.listWanted = false;
    this.resourceVersion = resourceVersion;
    this.listed = true;
    const objects = items.map((item) => withoutManagedFields(isRecord(item) ? item : {}));
    this.log.info({ objects: objects.length, resourceVersion, sinks: this.sinks.length, metadataOnly }, 'listed');
    for (const sink of [...this.sinks]) sink.replaced(objects);
  }

  private watchOnce(signal: AbortSignal): Promise<ReflectorWatchEnd> {
    const watchdogMs = this.options.watchdogMs ?? 300_000;
    return new Promise((resolve) => {
      let received = false;
      let expired = false;
      let settled = false;
      let request: AbortController | undefined;
      let watchdog: ReturnType<typeof setTimeout> | undefined;
      const finish = (end: ReflectorWatchEnd): void => {
        if (settled) return;
        settled = true;
        if (watchdog !== undefined) this.clock.clearTimeout(watchdog);
        signal.removeEventListener('abort', onAbort);
        if (this.endWatch === endForRelist) this.endWatch = undefined;
        request?.abort();
        resolve(end);
      };
      const endForRelist = (): void => finish({ reason: 'relist' });
      this.endWatch = endForRelist;
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
      this.client.watch(collectionPath(this.options.resource, this.options.namespace), query, onEvent, onDone, { accept: this.accept.watch }).then(
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
      const object = withoutManagedFields(isRecord(raw) ? raw : {});
      for (const sink of this.sinks.slice()) sink.changed(type, object);
    }
    if (resourceVersion !== undefined) this.resourceVersion = resourceVersion;
  }
}
