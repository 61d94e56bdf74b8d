// The event bus a controller holds: publish facts, subscribe to hints, answer requests, survive NATS being away; and
// what a viewer (the console) holds: follow the facts as they are stored, ask a controller what it holds in memory.
// Events only make reconciles happen sooner; nothing here affects readiness.
import { jetstreamManager } from '@nats-io/jetstream';
import type { ZkEvent } from '@zk-oam/apis';
import type { Logger } from 'pino';
import { Registry } from 'prom-client';
import type { z } from 'zod';
import { openNatsLink, type NatsConnectionOptions } from './connection.js';
import { startConsumerLoop, type ConsumerLoop, type EventHandler } from './consume.js';
import { startFollowing, type FollowOptions } from './follow.js';
import { eventBusMetrics } from './metrics.js';
import { publishEvent } from './publish.js';
import { requestReply, startResponding, type RequestOptions, type RequestOutcome, type Responder } from './request-reply.js';
import { defaultEventStream, ensureStream, type EventStreamOptions } from './stream.js';

export interface EventBusOptions extends NatsConnectionOptions {
  /** Defaults to defaultEventStream (ZKOAM_EVENTS on `zk.>`). */
  stream?: EventStreamOptions;
  /** Where the bus' metrics are registered; a process that serves none (the console) leaves it out. */
  registry?: Registry;
  log: Logger;
  /** How long publish() and JetStream API calls wait for an answer; default 2000 ms. */
  requestTimeoutMs?: number;
}

export interface SubscribeOptions {
  /** Durable consumer name; one per controller, shared by its replicas. */
  durable: string;
  /** Defaults to the stream's subjects. */
  filterSubjects?: string[];
  /** Default `new`: a new consumer starts at the end of the stream (a starting controller lists anyway). */
  deliverPolicy?: 'new' | 'all';
  /** Called once per valid event; the message is acknowledged after it returns. */
  handler: EventHandler;
}

export interface EventSubscription {
  close(): Promise<void>;
}

export interface EventBus {
  /** Publishes the event; never throws: failures are logged and counted. */
  publish(event: ZkEvent): Promise<void>;
  subscribe(options: SubscribeOptions): EventSubscription;
  /** Reads events without a durable consumer (an ordered one), to show them rather than act on them. */
  follow(options: FollowOptions): EventSubscription;
  /** Answers requests on a subject (core NATS, nothing stored) until closed. */
  respond<Q extends z.ZodType, A extends z.ZodType>(responder: Responder<Q, A>): EventSubscription;
  /** Asks once and waits at most `timeoutMs`; never throws: the outcome says why there is no reply. */
  request<A extends z.ZodType>(options: RequestOptions<A>): Promise<RequestOutcome<z.infer<A>>>;
  /** Stops every subscription and closes the connection. */
  close(): Promise<void>;
}

const DEFAULT_REQUEST_TIMEOUT_MS = 2_000;
const HANDLER_RETRY_MS = 1_000;
const MAX_DELIVER = 5;
const ACK_WAIT_MS = 30_000;

/**
 * Opens the bus without waiting for NATS: the connection is made (and re-made) in the background,
 * the stream is ensured on every (re)connect, and publishes fail fast until then.
 */
export function connectEventBus(options: EventBusOptions): EventBus {
  const log = options.log.child({ component: 'event-bus', client: options.name });
  const metrics = eventBusMetrics(options.registry ?? new Registry());
  metrics.connected.set(0);
  const timeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const stream = options.stream ?? defaultEventStream;
  const link = openNatsLink({
    connection: options,
    log,
    metrics,
    onConnected: async (connection) => {
      await ensureStream(await jetstreamManager(connection, { timeout: timeoutMs }), stream);
      log.info({ stream: stream.name }, 'event stream ready');
    },
  });
  const loops = new Set<ConsumerLoop>();
  const keep = (loop: ConsumerLoop): EventSubscription => {
    loops.add(loop);
    return {
      close: async () => {
        loops.delete(loop);
        await loop.stop();
      },
    };
  };

  return {
    publish: (event) => publishEvent(event, { connection: link.current(), timeoutMs, metrics, log }),
    subscribe: (subscription) =>
      keep(
        startConsumerLoop({
          link,
          stream,
          consumer: {
            durable: subscription.durable,
            filterSubjects: subscription.filterSubjects ?? stream.subjects,
            deliverPolicy: subscription.deliverPolicy ?? 'new',
            maxDeliver: MAX_DELIVER,
            ackWaitMs: ACK_WAIT_MS,
          },
          handler: subscription.handler,
          metrics,
          log,
          requestTimeoutMs: timeoutMs,
          retryHandlerAfterMs: HANDLER_RETRY_MS,
        }),
      ),
    respond: (responder) => keep(startResponding(link, responder, log)),
    request: (request) => requestReply(link.current(), request),
    follow: (follow) => keep(startFollowing({ link, streamName: stream.name, follow, metrics, log, requestTimeoutMs: timeoutMs })),
    close: async () => {
      await Promise.all([...loops].map((loop) => loop.stop()));
      loops.clear();
      await link.close();
      log.info('event bus closed');
    },
  };
}
