// Each ordinal of the StatefulSet seen as a roll member: its pod, whether it needs a restart, and whether it is up.
import { myidOfOrdinal, podName as podOf } from '@zk-oam/apis';
import { memberLabel, type EnsembleAssessment } from '@zk-oam/zookeeper';
import { type PodView, type RollingPlanInput } from './input.js';
import { needsRestart, type RestartRequest } from './restart-request.js';
import type { WaitReason } from './step.js';

export type DownReason = Extract<WaitReason, 'PodMissing' | 'PodTerminating' | 'PodNotReady' | 'MemberNotSynced'>;

/** Up: pod live and ready, member serving and synced. `since` is known when pod timestamps tell when it went down. */
export type MemberState = { up: true } | { up: false; reason: DownReason; message: string; since: Date | undefined };

export interface RollMember {
  ordinal: number;
  podName: string;
  memberId: number;
  pod: PodView | undefined;
  /** Only a live pod needs a restart: a missing or Terminating one comes back at the update revision. */
  needsRestart: boolean;
  state: MemberState;
}

/** Ordinals 0..replicas-1 in order; pods above them are the StatefulSet's to remove and are not rolled. */
export function rollMembers(
  input: Pick<RollingPlanInput, 'statefulSet' | 'pods' | 'ensemble'>,
  updateRevision: string,
  request: RestartRequest | undefined,
): RollMember[] {
  return Array.from({ length: input.statefulSet.replicas }, (_unused, ordinal) => {
    const podName = podOf(input.statefulSet.name, ordinal);
    const memberId = myidOfOrdinal(ordinal);
    const pod = input.pods.find((candidate) => candidate.ordinal === ordinal);
    return {
      ordinal,
      podName,
      memberId,
      pod,
      needsRestart: pod !== undefined && pod.deletion === undefined && needsRestart(pod, updateRevision, request),
      state: memberState(podName, memberId, pod, input.ensemble),
    };
  });
}

/** Pods of ordinals 0..replicas-1 that are not up (missing, Terminating, not ready or not synced), in ordinal order. */
export function downPods(input: Pick<RollingPlanInput, 'statefulSet' | 'pods' | 'ensemble'>): string[] {
  return Array.from({ length: input.statefulSet.replicas }, (_unused, ordinal) => {
    const podName = podOf(input.statefulSet.name, ordinal);
    const pod = input.pods.find((candidate) => candidate.ordinal === ordinal);
    return memberState(podName, myidOfOrdinal(ordinal), pod, input.ensemble).up ? [] : [podName];
  }).flat();
}

/**
 * Pod live and ready, its server running, only not synced with the leader: how a follower looks while it re-syncs after
 * a leader change, as against one that is gone, not ready or silent.
 */
export function runsUnsynced(member: RollMember, ensemble: EnsembleAssessment): boolean {
  if (member.state.up || member.state.reason !== 'MemberNotSynced') return false;
  return ensemble.members.some((candidate) => candidate.id === member.memberId && candidate.running);
}

function memberState(podName: string, memberId: number, pod: PodView | undefined, ensemble: EnsembleAssessment): MemberState {
  if (pod === undefined) {
    return { up: false, reason: 'PodMissing', message: `pod ${podName} does not exist yet`, since: undefined };
  }
  if (pod.deletion !== undefined) {
    const deletedAt = pod.deletion.at.getTime() - (pod.deletion.gracePeriodSeconds ?? 0) * 1000;
    return { up: false, reason: 'PodTerminating', message: `pod ${podName} is terminating`, since: new Date(deletedAt) };
  }
  if (!pod.ready) {
    const restarts = pod.restartCount === 0 ? '' : ` (${pod.restartCount} container restarts)`;
    return { up: false, reason: 'PodNotReady', message: `pod ${podName} is not ready${restarts}`, since: pod.readyChangedAt ?? pod.createdAt };
  }
  const member = ensemble.members.find((candidate) => candidate.id === memberId);
  if (member === undefined || !member.synced) {
    const who = member === undefined ? `member ${memberId}` : memberLabel(member);
    const why = member === undefined ? 'is not in the ensemble' : (member.problem ?? 'is not synced with the leader');
    return { up: false, reason: 'MemberNotSynced', message: `${who} of pod ${podName} ${why}`, since: undefined };
  }
  return { up: true };
}
