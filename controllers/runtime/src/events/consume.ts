// A durable consumer loop: set up stream and consumer, deliver each valid event to the handler, drop invalid
// payloads for good, and start over with backoff after any error (NATS restarts, lost state, closed connections).
import { jetstream, jetstreamManager, type ConsumerMessages, type JsMsg } from '@nats-io/jetstream';
import type { ZkEvent } from '@zk-oam/apis';
import type { Logger } from 'pino';
import type { NatsLink } from './connection.js';
import { decodeEvent } from './decode.js';
import type { EventBusMetrics } from './metrics.js';
import { runRounds } from './restart-loop.js';
import { ensureDurableConsumer, ensureStream, type DurableConsumerOptions, type EventStreamOptions } from './stream.js';

export type EventHandler = (event: ZkEvent) => void | Promise<void>;

export interface ConsumerLoopOptions {
  link: NatsLink;
  stream: EventStreamOptions;
  consumer: DurableConsumerOptions;
  handler: EventHandler;
  metrics: EventBusMetrics;
  log: Logger;
  requestTimeoutMs: number;
  /** Delay before a message whose handler threw is delivered again. */
  retryHandlerAfterMs: number;
}

export interface ConsumerLoop {
  stop(): Promise<void>;
}

export function startConsumerLoop(options: ConsumerLoopOptions): ConsumerLoop {
  const { link, metrics } = options;
  const durable = options.consumer.durable;
  const log = options.log.child({ durable, stream: options.stream.name });
  let messages: ConsumerMessages | undefined;

  const consumeOnce = async (signal: AbortSignal): Promise<void> => {
    const connection = await link.whenConnected(signal);
    const jsm = await jetstreamManager(connection, { timeout: options.requestTimeoutMs });
    await ensureStream(jsm, options.stream);
    await ensureDurableConsumer(jsm, options.stream.name, options.consumer);
    const consumer = await jetstream(connection, { timeout: options.requestTimeoutMs }).consumers.get(
      options.stream.name,
      durable,
    );
    // Missing stream or consumer ends the iterator, so the next round re-creates them.
    messages = await consumer.consume({ max_messages: 64, abort_on_missing_resource: true });
    if (signal.aborted) await messages.close();
    log.info('consuming events');
    for await (const message of messages) await deliver(message, options, log);
    const stoppedWith = await messages.closed();
    if (stoppedWith instanceof Error) throw stoppedWith;
  };

  const rounds = runRounds(consumeOnce, (error, attempt) => {
    metrics.consumerRestarts.inc({ durable });
    log.warn({ err: error, attempt }, 'event consumer stopped; restarting');
  });

  return { stop: () => rounds.stop(async () => messages?.close()) };
}

/**
 * Hands one message to the handler. Invalid payloads are terminated so they are never delivered again
 * (term() without a reason: nats-server 2.9 does not recognise `+TERM <reason>` and would redeliver).
 */
async function deliver(message: JsMsg, options: ConsumerLoopOptions, log: Logger): Promise<void> {
  const { metrics } = options;
  const event = decodeEvent(message, metrics, log);
  if (event === undefined) {
    message.term();
    return;
  }
  try {
    await options.handler(event);
    message.ack();
  } catch (error) {
    metrics.handlerErrors.inc({ type: event.type });
    const where = { natsSubject: message.subject, seq: message.seq, redelivered: message.redelivered };
    log.error({ ...where, err: error, eventId: event.id, eventType: event.type }, 'event handler failed; redelivering later');
    message.nak(options.retryHandlerAfterMs);
  }
}
