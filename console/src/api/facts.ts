// The controllers' NATS facts in the console's streams, as `fact` frames whose data is the event envelope as it was
// published (and parsed with the apis schema: a malformed one is dropped and logged by the bus, never sent). The frame
// name and its data are what the web page reads. Without NATS the streams carry the watches alone.
import { eventFilterSubject } from '@zk-oam/apis';
import type { EventBus, FollowOptions, Logger } from '@zk-oam/runtime';
import type { EventStream } from '../http/event-stream.js';

export const FACT_FRAME = 'fact';

/** How far back an ensemble's stream starts: the stream keeps this much (an hour, the bus' defaultEventStream). */
export const RECENT_FACTS_MS = 60 * 60_000;

export type FactsWanted = Pick<FollowOptions, 'filterSubject' | 'since'>;

/** One ensemble's facts: those of the last hour, then new ones. */
export function ensembleFacts(namespace: string, name: string, now: Date): FactsWanted {
  return { filterSubject: eventFilterSubject({ namespace, workload: name }), since: new Date(now.getTime() - RECENT_FACTS_MS) };
}

/** New facts of every ensemble in `namespace`, or in every namespace when it is undefined. */
export function clusterFacts(namespace: string | undefined): FactsWanted {
  return { filterSubject: eventFilterSubject(namespace === undefined ? {} : { namespace }) };
}

/** Sends the facts wanted to `stream` until it ends; nothing without a bus. */
export function streamFacts(bus: EventBus | undefined, stream: EventStream, wanted: FactsWanted, log: Logger): void {
  if (bus === undefined) return;
  const subscription = bus.follow({ ...wanted, handler: (event) => stream.send(FACT_FRAME, event) });
  stream.stopWith({
    stop: () => {
      subscription.close().catch((error: unknown) => log.warn({ err: error }, 'stopping to follow NATS facts failed'));
    },
  });
}
