// What a route's handler gets: the caller's token, the path parameters and query, the body on demand, the response
// (for streams), and the directory of clusters to resolve the path's cluster against.
import type { ServerResponse } from 'node:http';
import type { EventBus, KubeClient, Logger } from '@zk-oam/runtime';
import type { z } from 'zod';
import type { ClusterDirectory, ConsoleCluster } from '../clusters.js';
import type { RoutePattern } from '../http/router.js';
import { notFound } from '../http/problem.js';

export interface RequestContext {
  readonly directory: ClusterDirectory;
  /** The caller's bearer token; empty on an anonymous route. */
  readonly token: string;
  readonly params: Readonly<Record<string, string>>;
  readonly query: URLSearchParams;
  readBody(): Promise<unknown>;
  readonly log: Logger;
  /** Aborted when the console stops. */
  readonly shutdown: AbortSignal;
  readonly response: ServerResponse;
  /** `X-Forwarded-Proto` of the proxy in front, if any: `https` makes the session cookie Secure. */
  readonly forwardedProto: string | undefined;
  /** The controllers' NATS, when configured: their facts, and the workload controller's answers about its looks. */
  readonly facts?: EventBus;
}

export interface JsonAnswer {
  readonly code: number;
  readonly body: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

export interface Route extends RoutePattern {
  /** One line for the OpenAPI document. */
  readonly summary: string;
  /** The request body's schema, for the OpenAPI document (handlers validate with it themselves). */
  readonly requestBody?: z.ZodType;
  /** The JSON answer's schema, for the OpenAPI document, where one is written down. */
  readonly responseBody?: z.ZodType;
  /** Answers with Server-Sent Events instead of one JSON body. */
  readonly stream?: true;
  /** Served without a token (the request carries one in its body). */
  readonly anonymous?: true;
  /** The JSON answer, or undefined when the handler has written a stream to the response itself. */
  handle(context: RequestContext): Promise<JsonAnswer | undefined>;
}

export interface Target {
  readonly cluster: ConsoleCluster;
  readonly client: KubeClient;
}

/** The path's cluster and a client of it acting as the caller; 404 for a cluster the console does not serve. */
export function targetOf(context: RequestContext): Target {
  const name = context.params['cluster'] ?? '';
  const cluster = context.directory.find(name);
  if (cluster === undefined) throw notFound(`no cluster ${name}; GET /api/v1/clusters lists them`);
  return { cluster, client: context.directory.clientFor(name, context.token) };
}

/** A path parameter the route pattern guarantees. */
export function param(context: RequestContext, name: string): string {
  return context.params[name] ?? '';
}

export function ok(body: unknown, code = 200): JsonAnswer {
  return { code, body };
}
