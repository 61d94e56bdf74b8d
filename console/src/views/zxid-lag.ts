// Each member's zxid lag as the console shows it, from the workload controller's latest look (asked over NATS
// request-reply after the caller's own read of the workload succeeded) and the workload's status members. Pure: the
// info and the members endpoint both show what this gives. Without an answer, every member's lag is unknown and the
// reason says why, so the info call never fails for want of it.
import {
  memberSchema,
  zxidLagSchema,
  zxidTextSchema,
  type Member,
  type ObservationReply,
  type ObservedMember,
  type ZookeeperWorkload,
} from '@zk-oam/apis';
import { z } from 'zod';

/** What asking gave: the reply, or why there is none (in words). */
export type ObservationAnswer = { ok: true; reply: ObservationReply } | { ok: false; reason: string };

/** Whether lags could be shown, and as of when the workload controller looked, or why not. */
export const zxidViewSchema = z.discriminatedUnion('available', [
  z.object({ available: z.literal(true), observedAt: z.string() }),
  z.object({ available: z.literal(false), reason: z.string() }),
]);
export type ZxidView = z.infer<typeof zxidViewSchema>;

export const memberWithLagSchema = memberSchema.extend({
  /** As the member's srvr answered it, when it answered. */
  zxid: zxidTextSchema.optional(),
  zxidLag: zxidLagSchema,
});
export type MemberWithLag = z.infer<typeof memberWithLagSchema>;

/** The members endpoint's answer (and the same two fields in the info, whose members are `memberStatus`). */
export const membersLagSchema = z.object({ zxid: zxidViewSchema, members: z.array(memberWithLagSchema) });
export type MembersLag = z.infer<typeof membersLagSchema>;

export function membersWithLag(workload: ZookeeperWorkload, answer: ObservationAnswer): MembersLag {
  const members = workload.status?.members ?? [];
  const view = zxidView(workload, answer);
  if (!view.available || !answer.ok) {
    const reason = view.available ? 'no answer' : view.reason;
    return { zxid: view, members: members.map((member) => ({ ...member, zxidLag: { kind: 'unknown', reason } })) };
  }
  const observed = new Map(answer.reply.members.map((member) => [member.pod, member]));
  return { zxid: view, members: members.map((member) => withLag(member, observed.get(member.pod))) };
}

function zxidView(workload: ZookeeperWorkload, answer: ObservationAnswer): ZxidView {
  if (!answer.ok) return { available: false, reason: answer.reason };
  const { uid } = answer.reply.workload;
  if (uid !== undefined && workload.metadata.uid !== undefined && uid !== workload.metadata.uid) {
    return { available: false, reason: 'the answer is about another workload of this name (recreated, or in another cluster on the same NATS)' };
  }
  return { available: true, observedAt: answer.reply.observedAt };
}

function withLag(member: Member, observed: ObservedMember | undefined): MemberWithLag {
  if (observed === undefined) return { ...member, zxidLag: { kind: 'unknown', reason: 'not in the latest look at the ensemble' } };
  return observed.answered ? { ...member, zxid: observed.zxid, zxidLag: observed.lag } : { ...member, zxidLag: observed.lag };
}
