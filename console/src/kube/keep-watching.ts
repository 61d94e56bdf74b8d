// A watch that outlives quiet periods: client-node ends a watch after 30 s without a byte (and the API server after
// its timeout), so an ensemble that does not change would end its stream every 30 s. Watching again from the last
// resourceVersion seen (bookmarks included) continues where it stopped, without replaying anything.
import { pause, type KubeClient } from '@zk-oam/runtime';
import { z } from 'zod';

type Watcher = Pick<KubeClient, 'watch'>;

export interface KeepWatchingOptions {
  readonly fieldSelector?: string;
  /** Where to start; undefined starts with the current objects as ADDED. */
  readonly resourceVersion?: string | undefined;
  /** The pause before watching again. */
  readonly rewatchDelayMs?: number;
}

export interface WatchHandlers {
  /** Each event but bookmarks and errors. */
  onEvent(type: string, object: unknown): void;
  /** The watch cannot go on (refused, failed, or an ERROR event such as 410 Gone, given its Status): once, never after stop(). */
  onEnd(error: unknown): void;
}

const versionedSchema = z.object({ metadata: z.object({ resourceVersion: z.string() }) });

/** Whether a watch ended without anything going wrong: closed by the server, or idle past client-node's timeout. */
export function endedQuietly(error: unknown): boolean {
  return error === null || error === undefined || (error instanceof Error && error.name === 'TimeoutError');
}

export function keepWatching(client: Watcher, path: string, options: KeepWatchingOptions, handlers: WatchHandlers): { stop(): void } {
  let resourceVersion = options.resourceVersion;
  let current: AbortController | undefined;
  // Aborted by stop() or a failure: it also cuts short the pause before watching again.
  const stopped = new AbortController();
  const fail = (error: unknown) => {
    if (stopped.signal.aborted) return;
    stopped.abort();
    handlers.onEnd(error);
  };
  const onEvent = (type: string, object: unknown) => {
    if (type === 'ERROR') {
      fail(object);
      current?.abort();
      return;
    }
    resourceVersion = versionedSchema.safeParse(object).data?.metadata.resourceVersion ?? resourceVersion;
    if (type !== 'BOOKMARK') handlers.onEvent(type, object);
  };
  const start = async (): Promise<void> => {
    const query = {
      allowWatchBookmarks: true,
      ...(options.fieldSelector === undefined ? {} : { fieldSelector: options.fieldSelector }),
      ...(resourceVersion === undefined ? {} : { resourceVersion }),
    };
    current = await client.watch(path, query, onEvent, (error) => {
      if (stopped.signal.aborted) return;
      if (!endedQuietly(error)) fail(error);
      else void watchAgain().catch(fail);
    });
    if (stopped.signal.aborted) current.abort();
  };
  const watchAgain = async (): Promise<void> => {
    await pause(options.rewatchDelayMs ?? 1_000, stopped.signal);
    if (!stopped.signal.aborted) await start();
  };
  start().catch(fail);
  return {
    stop: () => {
      stopped.abort();
      current?.abort();
    },
  };
}
