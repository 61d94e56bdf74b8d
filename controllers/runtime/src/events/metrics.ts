// Prometheus metrics of the event bus: NATS connection state, publishes, deliveries, rejected payloads.
import { Counter, Gauge, type Registry } from 'prom-client';

export interface EventBusMetrics {
  /** 1 while connected to NATS, 0 otherwise. */
  connected: Gauge;
  published: Counter<'type' | 'result'>;
  publishFailures: Counter<'reason'>;
  received: Counter<'type'>;
  invalid: Counter<'reason'>;
  handlerErrors: Counter<'type'>;
  consumerRestarts: Counter<'durable'>;
}

/** Registers the bus metrics, reusing ones already in the registry (a second bus in one process). */
export function eventBusMetrics(registry: Registry): EventBusMetrics {
  const gauge = (name: string, help: string): Gauge => {
    const existing = registry.getSingleMetric(name);
    return existing instanceof Gauge ? existing : new Gauge({ name, help, registers: [registry] });
  };
  const counter = <L extends string>(name: string, help: string, labelNames: readonly L[]): Counter<L> => {
    const existing = registry.getSingleMetric(name);
    return existing instanceof Counter ? existing : new Counter({ name, help, labelNames, registers: [registry] });
  };
  return {
    connected: gauge('zkoam_nats_connected', 'Whether the event bus is connected to NATS (1) or not (0)'),
    published: counter('zkoam_events_published_total', 'Events published, by type and result (ok, duplicate, failed)', [
      'type',
      'result',
    ]),
    publishFailures: counter(
      'zkoam_events_publish_failures_total',
      'Event publishes that failed, by reason (not_connected, timeout, invalid, error)',
      ['reason'],
    ),
    received: counter('zkoam_events_received_total', 'Messages delivered by the event consumer, by event type', ['type']),
    invalid: counter(
      'zkoam_events_invalid_total',
      'Delivered payloads dropped as invalid, by reason (not_json, invalid_envelope, unknown_type, invalid_data)',
      ['reason'],
    ),
    handlerErrors: counter('zkoam_events_handler_errors_total', 'Events whose handler threw, by event type', ['type']),
    consumerRestarts: counter(
      'zkoam_events_consumer_restarts_total',
      'Times a durable consumer loop restarted after an error, by durable name',
      ['durable'],
    ),
  };
}
