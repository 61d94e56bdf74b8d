// Every zk-oam event type as one discriminated union on `type`, with a staged parser and a builder.
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { ZOOKEEPER_WORKLOAD } from '../workload/kind.js';
import { eventEnvelopeSchema, type EventSubjectRef } from './envelope.js';
import {
  rollingBlockedEventSchema,
  rollingCompletedEventSchema,
  rollingStepCompletedEventSchema,
  rollingStepStartedEventSchema,
} from './rolling.js';
import { scaleBlockedEventSchema, scaleStepCompletedEventSchema, scaleStepStartedEventSchema } from './scale.js';
import {
  leaderChangedEventSchema,
  membershipChangedEventSchema,
  readinessChangedEventSchema,
  templateRevisionChangedEventSchema,
} from './workload.js';

const eventSchemas = [
  leaderChangedEventSchema,
  membershipChangedEventSchema,
  readinessChangedEventSchema,
  templateRevisionChangedEventSchema,
  scaleStepStartedEventSchema,
  scaleStepCompletedEventSchema,
  scaleBlockedEventSchema,
  rollingStepStartedEventSchema,
  rollingStepCompletedEventSchema,
  rollingBlockedEventSchema,
  rollingCompletedEventSchema,
] as const;

export const zkEventSchema = z.discriminatedUnion('type', eventSchemas);
export type ZkEvent = z.infer<typeof zkEventSchema>;
export type ZkEventType = ZkEvent['type'];
export type ZkEventOf<T extends ZkEventType> = Extract<ZkEvent, { type: T }>;
export type ZkEventData<T extends ZkEventType> = ZkEventOf<T>['data'];

export const zkEventTypes: readonly ZkEventType[] = eventSchemas.map((schema) => schema.shape.type.value);

export function isZkEventType(type: string): type is ZkEventType {
  return (zkEventTypes as readonly string[]).includes(type);
}

/** Why a payload is not a usable event; becomes the `reason` label of the invalid-events metric. */
export type EventRejection = 'invalid_envelope' | 'unknown_type' | 'invalid_data';

export type ParsedEvent =
  | { ok: true; event: ZkEvent }
  | { ok: false; reason: EventRejection; type?: string; message: string };

/**
 * Parses a decoded payload in stages so the failure says which part was wrong:
 * the envelope, the type (a newer publisher's event), or the type's data.
 */
export function parseEvent(payload: unknown): ParsedEvent {
  const envelope = eventEnvelopeSchema.safeParse(payload);
  if (!envelope.success) {
    return { ok: false, reason: 'invalid_envelope', message: z.prettifyError(envelope.error) };
  }
  const type = envelope.data.type;
  if (!isZkEventType(type)) {
    return { ok: false, reason: 'unknown_type', type, message: `unknown event type ${JSON.stringify(type)}` };
  }
  const event = zkEventSchema.safeParse(payload);
  if (!event.success) {
    return { ok: false, reason: 'invalid_data', type, message: z.prettifyError(event.error) };
  }
  return { ok: true, event: event.data };
}

/** What a publisher provides; `data` must match `type`. */
export type NewZkEvent = {
  [T in ZkEventType]: {
    type: T;
    source: string;
    subject: EventSubjectRef;
    data: ZkEventData<T>;
    /** Defaults to a random UUID; pass a stable one to make a re-publish de-duplicate. */
    id?: string;
    /** Defaults to now. */
    time?: Date;
  };
}[ZkEventType];

/** Builds a validated event; throws a ZodError when the publisher's data breaks the contract. */
export function createEvent(input: NewZkEvent): ZkEvent {
  return zkEventSchema.parse({
    id: input.id ?? randomUUID(),
    source: input.source,
    type: input.type,
    subject: input.subject,
    time: (input.time ?? new Date()).toISOString(),
    data: input.data,
  });
}

/** A fact as its publisher holds it, before it is an event: a type and the data of that type. */
export type ZkFact = { [T in ZkEventType]: { readonly type: T; readonly data: ZkEventData<T> } }[ZkEventType];

/** The workload a published fact is about, as the event's subject names it. */
export interface WorkloadSubject {
  readonly namespace: string;
  readonly name: string;
  readonly uid: string | undefined;
}

/**
 * The event of a fact about a workload. Every zk-oam event is about the workload (a trait's too), so one subject
 * hierarchy covers an ensemble. `time` defaults to now.
 */
export function workloadEvent(fact: ZkFact, workload: WorkloadSubject, origin: { readonly source: string; readonly time?: Date }): ZkEvent {
  const subject = {
    apiVersion: ZOOKEEPER_WORKLOAD.apiVersion,
    kind: ZOOKEEPER_WORKLOAD.kind,
    namespace: workload.namespace,
    name: workload.name,
    ...(workload.uid === undefined ? {} : { uid: workload.uid }),
  };
  return createEvent({ ...fact, ...origin, subject });
}
