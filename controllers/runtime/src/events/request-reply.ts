// Core NATS request-reply on the bus' connection: one process answers questions about what it holds in memory, another
// asks and waits a bounded time. Not JetStream: an answer is worth nothing once its asker stopped waiting, so nothing
// is stored. Both sides parse what they receive with zod; neither ever throws at its caller.
import { RequestError, TimeoutError, type Msg, type Subscription } from '@nats-io/nats-core';
import type { Logger } from 'pino';
import type { z } from 'zod';
import type { NatsLink } from './connection.js';
import type { ConsumerLoop } from './consume.js';
import { runRounds } from './restart-loop.js';

export interface Responder<Q extends z.ZodType, A extends z.ZodType> {
  /** The subject answered, wildcards allowed (`zkoam.v1.observations.>`). */
  subject: string;
  request: Q;
  reply: A;
  /**
   * The reply to one valid request, or undefined to stay silent: a standby replica stays silent so that the leader's
   * answer is the one the asker gets. `subject` is the request's own subject.
   */
  handle: (request: z.infer<Q>, subject: string) => z.infer<A> | undefined;
}

/** Why a request got no usable reply, in words a person reads beside the missing data. */
export type RequestFailure = 'not_connected' | 'no_responder' | 'timeout' | 'invalid_reply' | 'error';

export type RequestOutcome<T> = { ok: true; reply: T } | { ok: false; failure: RequestFailure; message: string };

export interface RequestOptions<A extends z.ZodType> {
  subject: string;
  body: unknown;
  reply: A;
  timeoutMs: number;
}

const failed = (failure: RequestFailure, message: string): { ok: false; failure: RequestFailure; message: string } => ({ ok: false, failure, message });

/** What asking needs of a connection. */
export interface Asker {
  request(subject: string, payload: string, options: { timeout: number }): Promise<Pick<Msg, 'json'>>;
}

/** Asks once on the connection (undefined while NATS is away); resolves with the parsed reply or with why there is none. */
export async function requestReply<A extends z.ZodType>(connection: Asker | undefined, options: RequestOptions<A>): Promise<RequestOutcome<z.infer<A>>> {
  if (connection === undefined) return failed('not_connected', 'not connected to NATS');
  let answer: Pick<Msg, 'json'>;
  try {
    answer = await connection.request(options.subject, JSON.stringify(options.body), { timeout: options.timeoutMs });
  } catch (error) {
    return failed(...requestErrorOf(error, options.timeoutMs));
  }
  let payload: unknown;
  try {
    payload = answer.json<unknown>();
  } catch {
    return failed('invalid_reply', 'the reply is not JSON');
  }
  const parsed = options.reply.safeParse(payload);
  if (!parsed.success) return failed('invalid_reply', `the reply does not match its schema: ${parsed.error.issues[0]?.message ?? ''}`);
  return { ok: true, reply: parsed.data };
}

function requestErrorOf(error: unknown, timeoutMs: number): [RequestFailure, string] {
  if (error instanceof RequestError && error.isNoResponders()) return ['no_responder', 'nothing answers on NATS'];
  if (error instanceof TimeoutError || (error instanceof RequestError && error.cause instanceof TimeoutError)) {
    return ['timeout', `no reply within ${String(timeoutMs)} ms`];
  }
  return ['error', error instanceof Error ? error.message : String(error)];
}

/** Answers on the subject until stopped, subscribing again on every new connection the link makes. */
export function startResponding<Q extends z.ZodType, A extends z.ZodType>(link: NatsLink, responder: Responder<Q, A>, log: Logger): ConsumerLoop {
  const subjectLog = log.child({ respondOn: responder.subject });
  let subscription: Subscription | undefined;
  const respondOnce = async (signal: AbortSignal): Promise<void> => {
    const connection = await link.whenConnected(signal);
    subscription = connection.subscribe(responder.subject);
    if (signal.aborted) subscription.unsubscribe();
    subjectLog.info('answering requests');
    for await (const message of subscription) answer(message, responder, subjectLog);
  };
  const rounds = runRounds(respondOnce, (error, attempt) => subjectLog.warn({ err: error, attempt }, 'answering requests stopped; resuming'));
  return {
    stop: () =>
      rounds.stop(() => {
        subscription?.unsubscribe();
        return Promise.resolve();
      }),
  };
}

/** One request: an invalid one, or a handler that throws, gets no reply (the asker times out) and is logged. */
function answer<Q extends z.ZodType, A extends z.ZodType>(message: Msg, responder: Responder<Q, A>, log: Logger): void {
  try {
    const request = responder.request.safeParse(message.json<unknown>());
    if (!request.success) {
      log.warn({ natsSubject: message.subject, problem: request.error.issues[0]?.message }, 'ignoring an invalid request');
      return;
    }
    const reply = responder.handle(request.data, message.subject);
    if (reply === undefined) return;
    message.respond(JSON.stringify(responder.reply.parse(reply)));
  } catch (error) {
    log.warn({ err: error, natsSubject: message.subject }, 'a request got no reply');
  }
}
