// One watch response read as it arrives: each line a JSON event `{type, object}`, handed on one by one.
//
// A watch that sends nothing for WATCH_IDLE_TIMEOUT_MS ends with a TimeoutError (as client-node's Watch ends it), so
// a connection that died without a word is noticed within that time; callers watch again from their resourceVersion.
import type { Readable } from 'node:stream';
import { isRecord } from './json-record.js';

export const WATCH_IDLE_TIMEOUT_MS = 30_000;

interface WatchEvent {
  readonly type: string;
  readonly object: unknown;
}

export type WatchEventHandler = (type: string, object: unknown) => void;

/** How a watch ended: null when the server closed it (or its caller stopped it), else why. */
export type WatchEndHandler = (error: unknown) => void;

function idleError(): DOMException {
  return new DOMException(`the watch sent nothing for ${String(WATCH_IDLE_TIMEOUT_MS / 1000)} s`, 'TimeoutError');
}

/** A line as an event; a plain check, not a schema, since it runs for every event of every watch. */
function parseEvent(line: string): WatchEvent | Error {
  try {
    const parsed: unknown = JSON.parse(line);
    if (isRecord(parsed) && typeof parsed['type'] === 'string') return { type: parsed['type'], object: parsed['object'] };
  } catch {
    // Reported below without the line: it may hold a Secret's data.
  }
  return new Error(`the watch sent a line of ${String(line.length)} characters that is not a watch event`);
}

/**
 * Ends a watch once: stops its idle timer and its request, then tells the caller. An abort of the request is the
 * caller's own end (no error); `arm()` marks that something arrived, called as the watch starts and for every chunk.
 */
export class WatchEnding {
  private ended = false;
  private idle: ReturnType<typeof setTimeout> | undefined;
  private lastArrival = 0;

  constructor(
    private readonly request: AbortController,
    private readonly onDone: WatchEndHandler,
  ) {
    request.signal.addEventListener('abort', () => this.end(null), { once: true });
  }

  get done(): boolean {
    return this.ended;
  }

  arm(): void {
    if (this.ended) return;
    this.lastArrival = performance.now();
    // One timer per watch, which looks at the last arrival when it fires: moving a timer for every chunk was about 1%
    // of a controller's CPU in a burst (a profile of the manager, 100 new ensembles).
    this.idle ??= this.idleCheck(WATCH_IDLE_TIMEOUT_MS);
  }

  end(error: unknown): void {
    if (this.ended) return;
    this.ended = true;
    if (this.idle !== undefined) clearTimeout(this.idle);
    this.request.abort();
    this.onDone(error);
  }

  private idleCheck(afterMs: number): ReturnType<typeof setTimeout> {
    // A deadline that arrivals move, not a wait: nothing waits on it.
    const timer = setTimeout(() => {
      const silentMs = performance.now() - this.lastArrival;
      if (silentMs >= WATCH_IDLE_TIMEOUT_MS) this.end(idleError());
      else this.idle = this.idleCheck(WATCH_IDLE_TIMEOUT_MS - silentMs);
    }, afterMs);
    timer.unref();
    return timer;
  }
}

/** Sends each event of a watch response body to `onEvent` until the body ends; a line that is not an event ends it. */
export function readWatchEvents(body: Readable, onEvent: WatchEventHandler, ending: WatchEnding): void {
  let pending = '';
  body.setEncoding('utf8');
  body.on('data', (chunk: string) => {
    ending.arm();
    const lines = (pending + chunk).split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      if (ending.done) return;
      if (line.trim() === '') continue;
      const event = parseEvent(line);
      if (event instanceof Error) return ending.end(event);
      try {
        onEvent(event.type, event.object);
      } catch (error) {
        ending.end(error);
      }
    }
  });
  body.on('error', (error) => ending.end(error));
  body.on('end', () => ending.end(null));
  body.on('close', () => ending.end(null));
}
