// Idempotent JetStream set-up: the event stream and a durable pull consumer, created or brought to the wanted config.
import {
  AckPolicy,
  DeliverPolicy,
  DiscardPolicy,
  JetStreamApiError,
  RetentionPolicy,
  StorageType,
  type ConsumerConfig,
  type JetStreamManager,
  type StreamConfig,
} from '@nats-io/jetstream';
import { nanos } from '@nats-io/nats-core';
import { zkEventStream } from '@zk-oam/apis';

export interface EventStreamOptions {
  name: string;
  subjects: string[];
  /** How long events are kept, in milliseconds. */
  maxAgeMs: number;
  /** The window in which a message id is de-duplicated, in milliseconds (at most maxAgeMs). */
  duplicateWindowMs: number;
}

/** The zk-oam stream: events are hints, so an hour of history is plenty; ids de-duplicate for two minutes. */
export const defaultEventStream: EventStreamOptions = {
  name: zkEventStream.name,
  subjects: [...zkEventStream.subjects],
  maxAgeMs: 60 * 60_000,
  duplicateWindowMs: 2 * 60_000,
};

export interface DurableConsumerOptions {
  durable: string;
  /** Subjects to consume; one subject works on every server, several need nats-server 2.10. */
  filterSubjects: string[];
  /** `new`: only events published after the consumer was first created; `all`: the stream's history too. */
  deliverPolicy: 'new' | 'all';
  /** How often a message is delivered before the server gives up on it (handler errors). */
  maxDeliver: number;
  ackWaitMs: number;
}

export class EventStreamSetupError extends Error {
  constructor(message: string, readonly context: { stream: string; durable?: string }, options?: ErrorOptions) {
    super(message, options);
    this.name = 'EventStreamSetupError';
  }
}

export function streamConfig(options: EventStreamOptions): Partial<StreamConfig> & { name: string } {
  return {
    name: options.name,
    subjects: options.subjects,
    retention: RetentionPolicy.Limits,
    storage: StorageType.File,
    discard: DiscardPolicy.Old,
    num_replicas: 1,
    max_age: nanos(options.maxAgeMs),
    duplicate_window: nanos(options.duplicateWindowMs),
  };
}

export function consumerConfig(options: DurableConsumerOptions): Partial<ConsumerConfig> {
  const [onlySubject, ...more] = options.filterSubjects;
  return {
    durable_name: options.durable,
    ack_policy: AckPolicy.Explicit,
    deliver_policy: options.deliverPolicy === 'all' ? DeliverPolicy.All : DeliverPolicy.New,
    max_deliver: options.maxDeliver,
    ack_wait: nanos(options.ackWaitMs),
    ...(more.length === 0 ? { filter_subject: onlySubject } : { filter_subjects: options.filterSubjects }),
  };
}

/** Creates the stream, or updates it when it exists with another configuration. */
export async function ensureStream(jsm: JetStreamManager, options: EventStreamOptions): Promise<void> {
  const config = streamConfig(options);
  try {
    await jsm.streams.add(config);
  } catch (error) {
    if (!(error instanceof JetStreamApiError)) {
      throw new EventStreamSetupError(`cannot create stream ${options.name}`, { stream: options.name }, { cause: error });
    }
    try {
      await jsm.streams.update(options.name, config);
    } catch (updateError) {
      throw new EventStreamSetupError(
        `stream ${options.name} exists with another configuration and cannot be updated (create said: ${error.message})`,
        { stream: options.name },
        { cause: updateError },
      );
    }
  }
}

/** Creates the durable consumer, or updates it when it exists with another configuration. */
export async function ensureDurableConsumer(
  jsm: JetStreamManager,
  stream: string,
  options: DurableConsumerOptions,
): Promise<void> {
  const config = consumerConfig(options);
  const context = { stream, durable: options.durable };
  try {
    await jsm.consumers.add(stream, config);
  } catch (error) {
    if (!(error instanceof JetStreamApiError)) {
      throw new EventStreamSetupError(`cannot create consumer ${options.durable}`, context, { cause: error });
    }
    try {
      await jsm.consumers.update(stream, options.durable, config);
    } catch (updateError) {
      throw new EventStreamSetupError(
        `consumer ${options.durable} exists with another configuration and cannot be updated (create said: ${error.message})`,
        context,
        { cause: updateError },
      );
    }
  }
}
