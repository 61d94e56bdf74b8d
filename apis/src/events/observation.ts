// The workload controller's latest look at an ensemble, asked for over core NATS request-reply (not JetStream, not the
// status): each member's role and zxid change with every write, so they are answered from the controller's memory
// instead of being written to the workload's status on every observation. Subject `zkoam.v1.observations.<ns>.<name>`,
// outside the event stream's `zk.>` so that JetStream never stores (nor acknowledges) a request.
import { z } from 'zod';
import { subjectToken } from './subject.js';

export const OBSERVATION_SUBJECT_PREFIX = 'zkoam.v1.observations';

/** Where the workload controller answers for one workload. */
export function observationSubject(namespace: string, workload: string): string {
  return `${OBSERVATION_SUBJECT_PREFIX}.${subjectToken(namespace)}.${subjectToken(workload)}`;
}

/** Every workload's subject: what the workload controller subscribes to. */
export const ALL_OBSERVATIONS_SUBJECT = `${OBSERVATION_SUBJECT_PREFIX}.*.*`;

/** The request names its workload again, so the answer never depends on reading a name back from a subject token. */
export const observationRequestSchema = z.object({ namespace: z.string().min(1), name: z.string().min(1) });
export type ObservationRequest = z.infer<typeof observationRequestSchema>;

/** A zxid as the zookeeper package formats it: `0x` and lowercase hex, epoch in the high 32 bits. */
export const zxidTextSchema = z.string().regex(/^0x[0-9a-f]{1,16}$/, 'a zxid is 0x followed by up to 16 lowercase hex digits');

/**
 * How far a member is behind the leader, as of the look: `behind` in transactions (the leader itself is 0), a member
 * still on an older leader epoch (its counter is not comparable), or unknown (it gave no zxid, or no leader answered).
 */
export const zxidLagSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('behind'), transactions: z.number().int().min(0) }),
  z.object({ kind: z.literal('olderEpoch'), epoch: z.number().int().min(0), leaderEpoch: z.number().int().min(0) }),
  z.object({ kind: z.literal('unknown'), reason: z.string().min(1) }),
]);
export type ZxidLag = z.infer<typeof zxidLagSchema>;

const memberCommon = { pod: z.string().min(1), myid: z.number().int().min(1).max(255), lag: zxidLagSchema };

/** One member pod as srvr answered (mode and zxid), or as unreachable (mode `none`, and why). */
export const observedMemberSchema = z.discriminatedUnion('answered', [
  z.object({
    ...memberCommon,
    answered: z.literal(true),
    mode: z.enum(['leader', 'follower', 'observer', 'standalone', 'read-only']),
    zxid: zxidTextSchema,
  }),
  z.object({ ...memberCommon, answered: z.literal(false), mode: z.literal('none'), problem: z.string().min(1) }),
]);
export type ObservedMember = z.infer<typeof observedMemberSchema>;

export const observationReplySchema = z.object({
  /** The workload observed; the uid tells a workload from a namesake (recreated, or in another cluster on one NATS). */
  workload: z.object({ namespace: z.string().min(1), name: z.string().min(1), uid: z.string().optional() }),
  observedAt: z.iso.datetime({ offset: true }),
  /** Sorted by myid; empty while no member pod exists. */
  members: z.array(observedMemberSchema),
});
export type ObservationReply = z.infer<typeof observationReplySchema>;
