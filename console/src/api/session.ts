// The web page's session: the caller's token in an HttpOnly cookie (the page cannot set headers on an EventSource),
// checked against the API server, which says who it belongs to. The console stores nothing: the cookie is the session.
import type { KubeClient } from '@zk-oam/runtime';
import { z } from 'zod';
import type { JsonAnswer, RequestContext } from './context.js';
import { sessionRequestSchema, validated } from './requests.js';
import { sessionCookie } from '../http/credentials.js';
import { ConsoleProblem } from '../http/problem.js';

const selfSubjectReviewSchema = z.looseObject({
  status: z.looseObject({ userInfo: z.looseObject({ username: z.string().optional(), groups: z.array(z.string()).optional() }).optional() }).optional(),
});

export interface Caller {
  readonly username: string;
  readonly groups: string[];
}

/** Who the API server says the token belongs to (SelfSubjectReview, which every authenticated user may create). */
async function whoIs(client: KubeClient): Promise<Caller> {
  const review = selfSubjectReviewSchema.parse(
    await client.request('POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', {
      body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' },
    }),
  );
  return { username: review.status?.userInfo?.username ?? 'unknown', groups: review.status?.userInfo?.groups ?? [] };
}

/** The first cluster served: a token is checked where the page starts. */
function firstClient(context: RequestContext, token: string): KubeClient {
  const first = context.directory.list()[0];
  if (first === undefined) throw new ConsoleProblem(503, 'NoCluster', 'the console serves no cluster');
  return context.directory.clientFor(first.name, token);
}

function secure(context: RequestContext): boolean {
  return context.forwardedProto === 'https';
}

export async function startSession(context: RequestContext): Promise<JsonAnswer> {
  const { token } = validated(sessionRequestSchema, await context.readBody());
  const caller = await whoIs(firstClient(context, token));
  return { code: 200, body: { caller }, headers: { 'Set-Cookie': sessionCookie(token, secure(context)) } };
}

export async function currentSession(context: RequestContext): Promise<JsonAnswer> {
  return { code: 200, body: { caller: await whoIs(firstClient(context, context.token)) } };
}

export function endSession(context: RequestContext): Promise<JsonAnswer> {
  return Promise.resolve({ code: 200, body: { caller: null }, headers: { 'Set-Cookie': sessionCookie('', secure(context)) } });
}
