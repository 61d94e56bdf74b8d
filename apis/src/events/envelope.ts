// The envelope every zk-oam NATS event shares: who said it, about which workload, when, and what.
import { z } from 'zod';

const dnsLabel = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const dnsSubdomain = /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/;

/**
 * The ZookeeperWorkload an event is about. Trait events name the workload they act on too,
 * so one NATS subject hierarchy (`zk.<namespace>.<workload>.<type>`) covers an ensemble.
 */
export const eventSubjectRefSchema = z.object({
  apiVersion: z.string().min(1),
  kind: z.string().min(1),
  namespace: z.string().max(63).regex(dnsLabel, 'a Kubernetes namespace name (DNS label)'),
  name: z.string().max(253).regex(dnsSubdomain, 'a Kubernetes object name (DNS subdomain)'),
  uid: z.string().min(1).optional(),
});
export type EventSubjectRef = z.infer<typeof eventSubjectRefSchema>;

/** The envelope with `type` and `data` left open: the first parsing stage, before the type is known. */
export const eventEnvelopeSchema = z.object({
  /** A UUID; also the JetStream message id, so a re-published event is de-duplicated. */
  id: z.uuid(),
  /** The name of the controller that published the event. */
  source: z.string().min(1),
  type: z.string().min(1),
  subject: eventSubjectRefSchema,
  /** When the fact happened, RFC 3339. */
  time: z.iso.datetime({ offset: true }),
  data: z.unknown(),
});
export type EventEnvelope = z.infer<typeof eventEnvelopeSchema>;

/** The schema of one event type: the envelope with a literal `type` and that type's `data`. */
export function eventSchema<const T extends string, D extends z.ZodObject>(
  type: T,
  data: D,
): z.ZodObject<Omit<typeof eventEnvelopeSchema.shape, 'type' | 'data'> & { type: z.ZodLiteral<T>; data: D }> {
  return eventEnvelopeSchema.extend({ type: z.literal(type), data });
}

/** The data of a *Blocked event: a stable reason (the condition reason) and a message for people. */
export const blockedEventDataSchema = z.object({ reason: z.string().min(1), message: z.string() });
