// Which pods go down next: followers first, highest ordinal first, the leader alone and last, never past the quorum.
import { majorityAfter, type EnsembleAssessment } from '@zk-oam/zookeeper';
import type { PodView } from './input.js';
import type { RollMember } from './members.js';
import type { PodToDelete } from './step.js';

export type BatchChoice = { ok: true; pods: [PodToDelete, ...PodToDelete[]] } | { ok: false; message: string };

/**
 * Called on a healthy ensemble with at least one pod to restart. Takes up to maxUnavailable followers while the voters
 * that stay up remain a majority (invariant 1); the leader only once no follower is left, so one roll costs one election.
 */
export function chooseBatch(members: readonly RollMember[], ensemble: EnsembleAssessment, maxUnavailable: number): BatchChoice {
  const pending = members.flatMap((member): PendingMember[] =>
    member.needsRestart && member.pod !== undefined ? [{ ...member, pod: member.pod }] : [],
  );
  const followers = pending.filter((member) => member.memberId !== ensemble.leader).sort((a, b) => b.ordinal - a.ordinal);
  const candidates = followers.length > 0 ? followers : pending;
  const upVoters = ensemble.members.filter((member) => member.voter && member.synced).map((member) => member.id);
  const batch: PendingMember[] = [];
  let refusal = '';
  for (const candidate of candidates.slice(0, maxUnavailable)) {
    const leaving = new Set([...batch, candidate].map((member) => member.memberId));
    const check = majorityAfter(
      upVoters.filter((id) => !leaving.has(id)),
      ensemble.voters,
      ensemble.voters,
    );
    if (!check.ok) {
      refusal = `restarting pod ${candidate.podName} now would leave ${check.reason}`;
      break;
    }
    batch.push(candidate);
  }
  const [first, ...rest] = batch.map((member) => toDeletion(member, ensemble.leader));
  return first === undefined ? { ok: false, message: refusal } : { ok: true, pods: [first, ...rest] };
}

type PendingMember = RollMember & { pod: PodView };

function toDeletion(member: PendingMember, leader: number | undefined): PodToDelete {
  return { name: member.podName, uid: member.pod.uid, leader: member.memberId === leader };
}
