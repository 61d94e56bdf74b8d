// A small JSON client over a KubeConfig: raw objects in and out, so lists, watches and writes see the same shapes.
import { HttpMethod, RequestContext } from '@kubernetes/client-node';
import { getGlobalDispatcher, type Dispatcher } from 'undici';
import { z } from 'zod';
import type { PooledKubeConfig } from './pooled-kube-config.js';
import { readWatchEvents, WatchEnding, type WatchEndHandler, type WatchEventHandler } from './watch-stream.js';

/** A non-2xx answer from the apiserver; `code` is the HTTP status (409 conflict, 404 not found, 410 gone). */
export class KubeApiError extends Error {
  constructor(
    readonly code: number,
    readonly reason: string,
    readonly method: string,
    readonly path: string,
    /** What the apiserver said (its Status message). */
    readonly detail: string,
    /** The Status' `details.causes[].reason` (Go's StatusCause.Type), e.g. NamespaceTerminating. */
    readonly causes: readonly string[] = [],
    /** When the server asks to be asked again (the Status' `details.retryAfterSeconds`, as a 429 carries it). */
    readonly retryAfterSeconds?: number,
  ) {
    super(`${method} ${path}: ${code} ${reason}: ${detail}`);
    this.name = 'KubeApiError';
  }
}

export function isApiError(error: unknown, code: number): boolean {
  return error instanceof KubeApiError && error.code === code;
}

/**
 * A write refused because its namespace is being deleted (403 with the cause NamespaceTerminating). Everything in the
 * namespace is about to go, so there is nothing to retry or report: Kubernetes' own controllers drop it the same way.
 * Looks through a wrapping error's `cause`.
 */
export function isNamespaceTerminating(error: unknown): boolean {
  for (let current = error; current instanceof Error; current = current.cause) {
    if (current instanceof KubeApiError) return current.code === 403 && current.causes.includes('NamespaceTerminating');
  }
  return false;
}

function parseOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const statusSchema = z
  .object({
    reason: z.string().optional(),
    message: z.string().optional(),
    details: z
      .object({ causes: z.array(z.object({ reason: z.string().optional() }).loose()).optional(), retryAfterSeconds: z.int().min(1).optional() })
      .loose()
      .optional(),
  })
  .loose();

export type QueryParams = Record<string, string | number | boolean | undefined>;
export type Verb = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Ask for objects as metadata only (meta.k8s.io/v1 PartialObjectMetadata), as client-go's metadata client does: no
 * spec, no status, no Secret data. JSON only, with no fallback to whole objects, so a server that cannot answer so
 * refuses (406) instead of sending every object whole.
 */
export const METADATA_LIST_ACCEPT = 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1';
export const METADATA_WATCH_ACCEPT = 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1';

export interface RequestOptions {
  readonly query?: QueryParams;
  readonly body?: unknown;
  readonly contentType?: string;
  /** The representation asked for (e.g. only metadata, METADATA_LIST_ACCEPT); `application/json` when omitted. */
  readonly accept?: string;
  readonly signal?: AbortSignal;
}

export interface WatchOptions {
  /** The representation of each event's object (e.g. only metadata, METADATA_WATCH_ACCEPT); `application/json` when omitted. */
  readonly accept?: string;
}

/** A refusal from its status code and body: a Status object, except where no API serves the path yet (plain text). */
function refusal(code: number, text: string, verb: Verb, path: string): KubeApiError {
  const status = statusSchema.safeParse(parseOrUndefined(text));
  return new KubeApiError(
    code,
    status.data?.reason ?? 'Unknown',
    verb,
    path,
    status.data?.message ?? text.slice(0, 300),
    (status.data?.details?.causes ?? []).flatMap((cause) => (cause.reason === undefined ? [] : [cause.reason])),
    status.data?.details?.retryAfterSeconds,
  );
}

/**
 * One request on the context's pool (undici's global one for plain http): the dispatcher's own request method, where
 * undici's top-level `request` would parse the URL again to find the same origin and path.
 */
function send(context: RequestContext, options: Omit<Dispatcher.RequestOptions, 'origin' | 'path'>): Promise<Dispatcher.ResponseData> {
  const url = new URL(context.getUrl());
  return (context.getDispatcher() ?? getGlobalDispatcher()).request({ ...options, origin: url.origin, path: `${url.pathname}${url.search}` });
}

export class KubeClient {
  /** Its requests and watches share the kubeconfig's connection pool (pooled-kube-config.ts). */
  constructor(readonly kubeConfig: PooledKubeConfig) {}

  /** Sends one request and returns the parsed JSON body; throws KubeApiError on a non-2xx status. */
  async request(verb: Verb, path: string, options: RequestOptions = {}): Promise<unknown> {
    const context = await this.prepare(verb, path, options);
    // undici's request, not the fetch client-node sends with: the same connection pool at half the CPU per request.
    const response = await send(context, {
      method: verb,
      headers: context.getHeaders(),
      body: options.body === undefined ? null : JSON.stringify(options.body),
      signal: options.signal ?? null,
    });
    const text = await response.body.text();
    const code = response.statusCode;
    if (code >= 200 && code < 300) return text === '' ? undefined : JSON.parse(text);
    throw refusal(code, text, verb, path);
  }

  /** The URL and headers of one call, authenticated as the kubeconfig's current user. */
  private async prepare(verb: Verb, path: string, options: RequestOptions): Promise<RequestContext> {
    const cluster = this.kubeConfig.getCurrentCluster();
    if (cluster === null) throw new Error('the kubeconfig has no current cluster');
    const url = new URL(cluster.server + path);
    for (const [name, value] of Object.entries(options.query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    const context = new RequestContext(url.toString(), HttpMethod[verb]);
    context.setHeaderParam('Accept', options.accept ?? 'application/json');
    if (options.body !== undefined) context.setHeaderParam('Content-Type', options.contentType ?? 'application/json');
    await this.kubeConfig.applySecurityAuthentication(context);
    return context;
  }

  /**
   * Opens a watch on the shared connection pool, resolving once the server answered; `onEvent` gets each raw event,
   * `onDone` the end, once: null for a clean close or the caller's abort, a TimeoutError after a silence (see
   * watch-stream.ts), a KubeApiError for a refusal (410 Gone included), else the error. client-node's Watch cannot ask
   * for another representation than whole objects, nor use this pool.
   */
  async watch(path: string, query: QueryParams, onEvent: WatchEventHandler, onDone: WatchEndHandler, options: WatchOptions = {}): Promise<AbortController> {
    const context = await this.prepare('GET', path, { query: { ...query, watch: true }, accept: options.accept });
    const request = new AbortController();
    const ending = new WatchEnding(request, onDone);
    ending.arm();
    try {
      const response = await send(context, { method: 'GET', headers: context.getHeaders(), signal: request.signal });
      if (response.statusCode === 200) readWatchEvents(response.body, onEvent, ending);
      else ending.end(refusal(response.statusCode, await response.body.text(), 'GET', path));
    } catch (error) {
      ending.end(error);
    }
    return request;
  }
}
