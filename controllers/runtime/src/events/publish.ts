// Publishing one event: validated, on its subject, with the event id as JetStream message id,
// failing fast (and counted) instead of blocking a reconcile while NATS is away.
import { jetstream } from '@nats-io/jetstream';
import { TimeoutError, type NatsConnection } from '@nats-io/nats-core';
import { subjectOfEvent, zkEventSchema, type ZkEvent } from '@zk-oam/apis';
import type { Logger } from 'pino';
import type { EventBusMetrics } from './metrics.js';

export type PublishFailure = 'not_connected' | 'timeout' | 'invalid' | 'error';

export interface PublishContext {
  connection: NatsConnection | undefined;
  timeoutMs: number;
  metrics: EventBusMetrics;
  log: Logger;
}

/** Publishes the event; never throws. Resolves when JetStream stored it or the failure was recorded. */
export async function publishEvent(event: ZkEvent, context: PublishContext): Promise<void> {
  const { metrics } = context;
  const log = context.log.child({ eventId: event.id, eventType: event.type, subject: event.subject });
  const fail = (reason: PublishFailure, error?: unknown): void => {
    metrics.published.inc({ type: event.type, result: 'failed' });
    metrics.publishFailures.inc({ reason });
    log.warn({ err: error, reason }, 'event not published; subscribers will catch up through watches');
  };

  const valid = zkEventSchema.safeParse(event);
  if (!valid.success) return fail('invalid', valid.error);
  if (context.connection === undefined) return fail('not_connected');
  try {
    const ack = await jetstream(context.connection, { timeout: context.timeoutMs }).publish(
      subjectOfEvent(valid.data),
      JSON.stringify(valid.data),
      { msgID: valid.data.id, timeout: context.timeoutMs },
    );
    metrics.published.inc({ type: event.type, result: ack.duplicate ? 'duplicate' : 'ok' });
    log.debug({ stream: ack.stream, seq: ack.seq, duplicate: ack.duplicate }, 'event published');
  } catch (error) {
    fail(error instanceof TimeoutError ? 'timeout' : 'error', error);
  }
}
