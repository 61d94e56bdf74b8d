// The console's HTTP server: /api/v1 routes acting as the caller (bearer token required), the OpenAPI document, and
// /healthz. One JSON log line per request.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { EventBus, Logger } from '@zk-oam/runtime';
import type { ClusterDirectory } from './clusters.js';
import { ROUTES } from './api/routes.js';
import { bearerToken } from './http/bearer.js';
import { readJsonBody } from './http/body.js';
import { ConsoleProblem, errorAnswer } from './http/problem.js';
import { matchRoute } from './http/router.js';
import { API_PREFIX, openApiDocument } from './openapi.js';

export interface ConsoleServerOptions {
  readonly directory: ClusterDirectory;
  readonly log: Logger;
  /** Aborted when the process stops: open streams end. */
  readonly shutdown: AbortSignal;
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
  const token = bearerToken(request.headers.authorization);
  if (token === undefined) throw new ConsoleProblem(401, 'Unauthorized', 'a bearer token is required (Authorization: Bearer <token>); every call acts as its caller');
  const answer = await match.route.handle({
    directory: options.directory,
    token,
    params: match.params,
    query: url.searchParams,
    readBody: () => readJsonBody(request),
    log: options.log,
    shutdown: options.shutdown,
    response,
    facts: options.facts,
  });
  if (answer === undefined) return 200;
  sendJson(response, answer.code, answer.body);
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
