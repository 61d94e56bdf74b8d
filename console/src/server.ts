// The console's HTTP server: /api/v1 routes acting as the caller (bearer token or session cookie required), the
// OpenAPI document, the web page's files, and /healthz. One JSON log line per request.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { EventBus, Logger } from '@zk-oam/runtime';
import type { ClusterDirectory } from './clusters.js';
import { ROUTES } from './api/routes.js';
import { callerToken } from './http/credentials.js';
import { readJsonBody } from './http/body.js';
import { ConsoleProblem, errorAnswer } from './http/problem.js';
import { matchRoute } from './http/router.js';
import type { StaticFile } from './http/static-files.js';
import { API_PREFIX, openApiDocument } from './openapi.js';

export interface ConsoleServerOptions {
  readonly directory: ClusterDirectory;
  readonly log: Logger;
  /** Aborted when the process stops: open streams end. */
  readonly shutdown: AbortSignal;
  /** The web page's files by URL path (none: the console serves its API only). */
  readonly page: ReadonlyMap<string, StaticFile>;
  /** The controllers' NATS facts for the streams; without it they carry the watches alone. */
  readonly facts?: EventBus;
}

function sendJson(response: ServerResponse, code: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(code, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', ...headers });
  response.end(JSON.stringify(body));
}

async function dispatch(options: ConsoleServerOptions, request: IncomingMessage, response: ServerResponse, url: URL): Promise<number> {
  const match = matchRoute(ROUTES, request.method ?? 'GET', url.pathname.slice(API_PREFIX.length));
  if (match === undefined) throw new ConsoleProblem(404, 'NotFound', `no route ${url.pathname}`);
  if (match === 'methodNotAllowed') throw new ConsoleProblem(405, 'MethodNotAllowed', `${request.method ?? ''} is not served on ${url.pathname}`);
  const token = match.route.anonymous === true ? '' : callerToken(request.method ?? 'GET', request.headers);
  if (token === undefined) {
    throw new ConsoleProblem(401, 'Unauthorized', 'a bearer token is required (Authorization: Bearer <token>, or the session cookie); every call acts as its caller');
  }
  const forwarded = request.headers['x-forwarded-proto'];
  const answer = await match.route.handle({
    directory: options.directory,
    token,
    forwardedProto: Array.isArray(forwarded) ? forwarded[0] : forwarded,
    params: match.params,
    query: url.searchParams,
    readBody: () => readJsonBody(request),
    log: options.log,
    shutdown: options.shutdown,
    response,
    facts: options.facts,
  });
  if (answer === undefined) return 200;
  sendJson(response, answer.code, answer.body, answer.headers);
  return answer.code;
}

async function serve(options: ConsoleServerOptions, document: object, request: IncomingMessage, response: ServerResponse): Promise<number> {
  const url = new URL(request.url ?? '/', 'http://console');
  if (url.pathname === '/healthz') {
    sendJson(response, 200, { ok: true });
    return 200;
  }
  if (url.pathname === `${API_PREFIX}/openapi.json` && request.method === 'GET') {
    sendJson(response, 200, document);
    return 200;
  }
  const file = options.page.get(url.pathname);
  if (file !== undefined && (request.method === 'GET' || request.method === 'HEAD')) {
    response.writeHead(200, file.headers);
    response.end(request.method === 'GET' ? file.body : undefined);
    return 200;
  }
  if (!url.pathname.startsWith(`${API_PREFIX}/`)) throw new ConsoleProblem(404, 'NotFound', `no route ${url.pathname}`);
  return dispatch(options, request, response, url);
}

function answerFailure(log: Logger, request: IncomingMessage, response: ServerResponse, error: unknown): number {
  const { code, body } = errorAnswer(error);
  if (code >= 500) log.error({ err: error, method: request.method, path: request.url }, 'request failed');
  if (response.headersSent) {
    response.end();
    return code;
  }
  sendJson(response, code, body, code === 401 ? { 'WWW-Authenticate': 'Bearer' } : {});
  return code;
}

export function createConsoleServer(options: ConsoleServerOptions): Server {
  const document = openApiDocument(ROUTES);
  const { log } = options;
  return createServer((request, response) => {
    const started = performance.now();
    serve(options, document, request, response)
      .catch((error: unknown) => answerFailure(log, request, response, error))
      .then((code) => log.info({ method: request.method, path: request.url, code, ms: Math.round(performance.now() - started) }, 'request'))
      .catch((error: unknown) => log.error({ err: error }, 'logging a request failed'));
  });
}
