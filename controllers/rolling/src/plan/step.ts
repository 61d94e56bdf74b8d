// What the rolling planner answers: the one next step of a leader-aware rolling restart, as a tagged union.
import type { ServerEntry, Zxid } from '@zk-oam/zookeeper';

/** Why the roll cannot take its next step now; CamelCase so it can be a condition and Event reason as is. */
export const WAIT_REASONS = [
  'NoUpdateRevision',
  'StatefulSetNotOnDelete',
  'RestartRequestSettling',
  'PodMissing',
  'PodTerminating',
  'PodNotReady',
  'MemberNotSynced',
  'EnsembleUnhealthy',
  'LeadershipMoving',
] as const;
export type WaitReason = (typeof WAIT_REASONS)[number];

/** Blocked for a wait past the step timeout, or at once when no member can go down without losing the quorum. */
export type BlockedReason = WaitReason | 'NoQuorumMargin' | 'HandoverInterrupted';

export interface PodToDelete {
  name: string;
  /** Delete with this uid as a precondition. */
  uid: string;
  /** The member leads right now: it goes alone and last. */
  leader: boolean;
}

export type RollingStep =
  /** Every pod is at the update revision and restart request, and the ensemble is whole. */
  | { kind: 'Done' }
  /** spec.paused, and no pod of ours is on its way back. */
  | { kind: 'Paused'; pending: string[] }
  /** Write status.observedRestartTrigger = trigger and status.restartRequestedAt = at; pods created before `at` need a restart. */
  | { kind: 'RecordRestartRequest'; trigger: string; at: Date }
  /** `since`: when this wait began; keep it in status.waitingSince (see waitingSince) so the timeout survives restarts. */
  | { kind: 'Wait'; reason: WaitReason; message: string; since: Date }
  | { kind: 'Blocked'; reason: BlockedReason; message: string; since: Date }
  /** Followers (highest ordinal first, several when maxUnavailable allows), or the leader alone. */
  | { kind: 'DeletePods'; pods: [PodToDelete, ...PodToDelete[]] }
  /** Reconfigure the leader out of the voters (it designates its successor); then it is restarted as a non-voter. */
  | { kind: 'HandOverLeadership'; pod: PodToDelete; server: ServerEntry; fromVersion: Zxid }
  /** Reconfigure the handed-over member back in as a voter: it is back at the target and synced. */
  | { kind: 'RestoreVoter'; pod: string; server: ServerEntry; fromVersion: Zxid };

export type RollingStepKind = RollingStep['kind'];

/** Pods at the target (revision and restart request) or on their way to it, and pods still to restart; in ordinal order. */
export interface RollProgress {
  updated: string[];
  pending: string[];
}

/** A leader handover under way: recorded in the trait's status before the leader leaves the voters, until it is back. */
export interface HandoverRecord {
  pod: string;
  /** Its server line as committed before it left: it comes back with the same one. */
  server: ServerEntry;
  startedAt: Date;
}

export interface RollingPlan {
  step: RollingStep;
  progress: RollProgress;
  /** Set while a handover is under way after this step; the status keeps it, so a restarted controller finishes it. */
  handover?: HandoverRecord | undefined;
}
