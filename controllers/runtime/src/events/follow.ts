// Reading the stream as a viewer rather than a worker: an ordered consumer over some subjects, from a point in time
// (the events stored since then, then new ones) or from now on. Nothing is acknowledged and nothing is left on the
// server; a round that ends resumes after the last event seen, so none is shown twice or skipped.
import { DeliverPolicy, jetstream, type ConsumerMessages, type OrderedConsumerOptions } from '@nats-io/jetstream';
import type { ZkEvent } from '@zk-oam/apis';
import type { Logger } from 'pino';
import type { NatsLink } from './connection.js';
import type { ConsumerLoop } from './consume.js';
import { decodeEvent } from './decode.js';
import type { EventBusMetrics } from './metrics.js';
import { runRounds } from './restart-loop.js';

export interface FollowOptions {
  /** One NATS subject, wildcards allowed, e.g. `eventFilterSubject({ namespace, workload })` (one, as nats-server 2.9 takes). */
  filterSubject: string;
  /** The events stored since then first; only new ones when unset. */
  since?: Date;
  /** Called once per valid event, in stream order. */
  handler: (event: ZkEvent) => void;
}

export interface FollowLoopOptions {
  link: NatsLink;
  streamName: string;
  follow: FollowOptions;
  metrics: EventBusMetrics;
  log: Logger;
  requestTimeoutMs: number;
}

/** Where an ordered consumer starts: after the last event seen, else at `since`, else at the end of the stream. */
export function orderedConsumerOptions(follow: Pick<FollowOptions, 'filterSubject' | 'since'>, lastSeen?: number): Partial<OrderedConsumerOptions> {
  // A string, not an array: the client sends it as `filter_subject`, which servers before 2.10 understand.
  const filter = { filter_subjects: follow.filterSubject };
  if (lastSeen !== undefined) return { ...filter, deliver_policy: DeliverPolicy.StartSequence, opt_start_seq: lastSeen + 1 };
  if (follow.since !== undefined) return { ...filter, deliver_policy: DeliverPolicy.StartTime, opt_start_time: follow.since.toISOString() };
  return { ...filter, deliver_policy: DeliverPolicy.New };
}

export function startFollowing(options: FollowLoopOptions): ConsumerLoop {
  const { link, metrics, follow } = options;
  const log = options.log.child({ stream: options.streamName, filterSubject: follow.filterSubject });
  let messages: ConsumerMessages | undefined;
  let lastSeen: number | undefined;

  const followOnce = async (signal: AbortSignal): Promise<void> => {
    const connection = await link.whenConnected(signal);
    const js = jetstream(connection, { timeout: options.requestTimeoutMs });
    const consumer = await js.consumers.get(options.streamName, orderedConsumerOptions(follow, lastSeen));
    // A server that restarted has forgotten the (ephemeral) consumer, and the client's own reset of it does not recover
    // (shown on the bed): end the round then, so that the next one starts a new consumer after the last event seen.
    messages = await consumer.consume({ abort_on_missing_resource: true });
    if (signal.aborted) await messages.close();
    for await (const message of messages) {
      lastSeen = message.seq;
      const event = decodeEvent(message, metrics, log);
      if (event !== undefined) deliver(event, follow, log);
    }
    const stoppedWith = await messages.closed();
    if (stoppedWith instanceof Error) throw stoppedWith;
  };

  const rounds = runRounds(followOnce, (error, attempt) => log.warn({ err: error, attempt }, 'following events stopped; resuming'));
  return { stop: () => rounds.stop(async () => messages?.close()) };
}

/** A failing handler loses its one event, never the loop. */
function deliver(event: ZkEvent, follow: FollowOptions, log: Logger): void {
  try {
    follow.handler(event);
  } catch (error) {
    log.error({ err: error, eventId: event.id, eventType: event.type }, 'an event follower failed; going on with the next event');
  }
}
