// A durable consumer loop: set up stream and consumer, deliver each valid event to the handler, drop invalid
// payloads for good, and start over with backoff after any error (NATS restarts, lost state, closed connections).
import { jetstream, jetstreamManager, type ConsumerMessages, type JsMsg } from '@nats-io/jetstream';
import { parseEvent, type ZkEvent } from '@zk-oam/apis';
import type { Logger } from 'pino';
import { backoffDelayMs, pause, reconnectBackoff } from '../retry/backoff.js';
import type { NatsLink } from './connection.js';
import type { EventBusMetrics } from './metrics.js';
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
  const stopping = new AbortController();
  let messages: ConsumerMessages | undefined;

  const consumeOnce = async (): Promise<void> => {
    const connection = await link.whenConnected(stopping.signal);
    const jsm = await jetstreamManager(connection, { timeout: options.requestTimeoutMs });
    await ensureStream(jsm, options.stream);
    await ensureDurableConsumer(jsm, options.stream.name, options.consumer);
    const consumer = await jetstream(connection, { timeout: options.requestTimeoutMs }).consumers.get(
      options.stream.name,
      durable,
    );
    // Missing stream or consumer ends the iterator, so the next round re-creates them.
    messages = await consumer.consume({ max_messages: 64, abort_on_missing_resource: true });
    if (stopping.signal.aborted) await messages.close();
    log.info('consuming events');
    for await (const message of messages) await deliver(message, options, log);
    const stoppedWith = await messages.closed();
    if (stoppedWith instanceof Error) throw stoppedWith;
  };

  const run = async (): Promise<void> => {
    let attempt = 0;
    while (!stopping.signal.aborted) {
      const startedAt = Date.now();
      try {
        await consumeOnce();
      } catch (error) {
        if (stopping.signal.aborted) break;
        metrics.consumerRestarts.inc({ durable });
        log.warn({ err: error, attempt }, 'event consumer stopped; restarting');
      }
      if (Date.now() - startedAt > reconnectBackoff.maxMs) attempt = 0;
      await pause(backoffDelayMs(attempt++, reconnectBackoff), stopping.signal);
    }
  };
  const running = run();

  return {
    stop: async () => {
      stopping.abort();
      await messages?.close();
      await running;
    },
  };
}

/**
 * Hands one message to the handler. Invalid payloads are terminated so they are never delivered again
 * (term() without a reason: nats-server 2.9 does not recognise `+TERM <reason>` and would redeliver).
 */
async function deliver(message: JsMsg, options: ConsumerLoopOptions, log: Logger): Promise<void> {
  const { metrics } = options;
  const where = { natsSubject: message.subject, seq: message.seq, redelivered: message.redelivered };
  let payload: unknown;
  try {
    payload = message.json<unknown>();
  } catch (error) {
    metrics.received.inc({ type: 'invalid' });
    metrics.invalid.inc({ reason: 'not_json' });
    log.warn({ ...where, err: error }, 'dropping an event payload that is not JSON');
    message.term();
    return;
  }
  const parsed = parseEvent(payload);
  if (!parsed.ok) {
    metrics.received.inc({ type: 'invalid' });
    metrics.invalid.inc({ reason: parsed.reason });
    log.warn({ ...where, reason: parsed.reason, problem: parsed.message }, 'dropping an invalid event');
    message.term();
    return;
  }
  const event = parsed.event;
  metrics.received.inc({ type: event.type });
  try {
    await options.handler(event);
    message.ack();
  } catch (error) {
    metrics.handlerErrors.inc({ type: event.type });
    log.error({ ...where, err: error, eventId: event.id, eventType: event.type }, 'event handler failed; redelivering later');
    message.nak(options.retryHandlerAfterMs);
  }
}
