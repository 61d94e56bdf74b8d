// An open Server-Sent Events response: frames until it ends, once; keep-alive comments meanwhile; ended when the
// caller goes away or the console stops, and then stopping what feeds it (its watches).
import type { ServerResponse } from 'node:http';
import { SSE_HEADERS, SSE_KEEPALIVE, sseFrame } from './sse.js';

export const KEEPALIVE_MS = 15_000;

export interface EventStream {
  send(event: string, data: unknown, id?: string): void;
  /** Stops `source` when the stream ends (at once if it has). */
  stopWith(source: { stop(): void }): void;
  end(): void;
  readonly ended: boolean;
}

export function openEventStream(response: ServerResponse, shutdown: AbortSignal): EventStream {
  response.writeHead(200, SSE_HEADERS);
  const sources: { stop(): void }[] = [];
  let ended = false;
  // A keep-alive for as long as the stream is open, not a wait.
  const keepalive = setInterval(() => response.write(SSE_KEEPALIVE), KEEPALIVE_MS);
  const end = () => {
    if (ended) return;
    ended = true;
    clearInterval(keepalive);
    shutdown.removeEventListener('abort', end);
    response.end();
    for (const source of sources) source.stop();
  };
  shutdown.addEventListener('abort', end, { once: true });
  response.once('close', end);
  if (shutdown.aborted) end();
  return {
    send: (event, data, id) => {
      if (!ended) response.write(sseFrame(event, data, id));
    },
    stopWith: (source) => {
      sources.push(source);
      if (ended) source.stop();
    },
    end,
    get ended() {
      return ended;
    },
  };
}

/** A watch's end for the caller: the API server's Status as it is, or an error's message. */
export function describeEnd(error: unknown): unknown {
  return error instanceof Error ? error.message : error;
}
