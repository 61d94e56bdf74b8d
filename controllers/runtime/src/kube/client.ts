// A small JSON client over a KubeConfig: raw objects in and out, so lists, watches and writes see the same shapes.
import { HttpMethod, RequestContext, Watch, type KubeConfig } from '@kubernetes/client-node';
import { request as send } from 'undici';
import { z } from 'zod';

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
    details: z.object({ causes: z.array(z.object({ reason: z.string().optional() }).loose()).optional() }).loose().optional(),
  })
  .loose();

export type QueryParams = Record<string, string | number | boolean | undefined>;
export type Verb = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestOptions {
  readonly query?: QueryParams;
  readonly body?: unknown;
  readonly contentType?: string;
  readonly signal?: AbortSignal;
}

type Dispatcher = ReturnType<RequestContext['getDispatcher']>;

export class KubeClient {
  private readonly watcher: Watch;
  /**
   * The connection pool every request shares. client-node makes a new undici Agent for each request it authenticates,
   * so each request would open (and leave behind) its own TLS connection: at a few hundred requests a second that is
   * a TLS handshake per request on both sides and hundreds of idle sockets. The TLS settings come from the kubeconfig
   * and do not change for its life (client-go reads them once too); credentials are headers, set per request.
   */
  private dispatcher: Dispatcher;

  constructor(readonly kubeConfig: KubeConfig) {
    this.watcher = new Watch(kubeConfig);
  }

  /** Sends one request and returns the parsed JSON body; throws KubeApiError on a non-2xx status. */
  async request(verb: Verb, path: string, options: RequestOptions = {}): Promise<unknown> {
    const context = await this.prepare(verb, path, options);
    // undici's request, not the fetch client-node sends with: the same connection pool at half the CPU per request.
    const response = await send(context.getUrl(), {
      method: verb,
      headers: context.getHeaders(),
      body: options.body === undefined ? null : JSON.stringify(options.body),
      signal: options.signal ?? null,
      ...(this.dispatcher === undefined ? {} : { dispatcher: this.dispatcher }),
    });
    const text = await response.body.text();
    const code = response.statusCode;
    if (code >= 200 && code < 300) return text === '' ? undefined : JSON.parse(text);
    // A refusal is a Status object, except where no API serves the path yet (a CRD not established): plain text.
    const status = statusSchema.safeParse(parseOrUndefined(text));
    throw new KubeApiError(
      code,
      status.data?.reason ?? 'Unknown',
      verb,
      path,
      status.data?.message ?? text.slice(0, 300),
      (status.data?.details?.causes ?? []).flatMap((cause) => (cause.reason === undefined ? [] : [cause.reason])),
    );
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
    context.setHeaderParam('Accept', 'application/json');
    if (options.body !== undefined) context.setHeaderParam('Content-Type', options.contentType ?? 'application/json');
    await this.kubeConfig.applySecurityAuthentication(context);
    this.dispatcher ??= context.getDispatcher();
    if (this.dispatcher !== undefined) context.setDispatcher(this.dispatcher);
    return context;
  }

  /** Opens a watch; `onEvent` gets each raw event, `onDone` the end (an error, or null for a clean close). */
  watch(
    path: string,
    query: QueryParams,
    onEvent: (type: string, object: unknown) => void,
    onDone: (error: unknown) => void,
  ): Promise<AbortController> {
    return this.watcher.watch(path, query, (type: string, object: unknown) => onEvent(type, object), onDone);
  }
}
