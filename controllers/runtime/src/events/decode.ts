// One JetStream message to one event, the same for every reader of the stream: a payload that is not JSON or not a
// valid event is counted and logged, and the reader gets nothing to act on or to show.
import type { JsMsg } from '@nats-io/jetstream';
import { parseEvent, type ZkEvent } from '@zk-oam/apis';
import type { Logger } from 'pino';
import type { EventBusMetrics } from './metrics.js';

/** The message's event, or undefined when it holds none (dropped: counted as invalid and logged). */
export function decodeEvent(message: JsMsg, metrics: EventBusMetrics, log: Logger): ZkEvent | undefined {
  const where = { natsSubject: message.subject, seq: message.seq, redelivered: message.redelivered };
  let payload: unknown;
  try {
    payload = message.json<unknown>();
  } catch (error) {
    metrics.received.inc({ type: 'invalid' });
    metrics.invalid.inc({ reason: 'not_json' });
    log.warn({ ...where, err: error }, 'dropping an event payload that is not JSON');
    return undefined;
  }
  const parsed = parseEvent(payload);
  if (!parsed.ok) {
    metrics.received.inc({ type: 'invalid' });
    metrics.invalid.inc({ reason: parsed.reason });
    log.warn({ ...where, reason: parsed.reason, problem: parsed.message }, 'dropping an invalid event');
    return undefined;
  }
  metrics.received.inc({ type: parsed.event.type });
  return parsed.event;
}
