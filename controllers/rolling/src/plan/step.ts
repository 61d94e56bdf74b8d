// What the rolling planner answers: the one next step of a leader-aware rolling restart, as a tagged union.

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
] as const;
export type WaitReason = (typeof WAIT_REASONS)[number];

/** Blocked for a wait past the step timeout, or at once when no member can go down without losing the quorum. */
export type BlockedReason = WaitReason | 'NoQuorumMargin';

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
  /** `since`: when this wait began; keep it in the Waiting condition (see waitingCondition) so the timeout survives restarts. */
  | { kind: 'Wait'; reason: WaitReason; message: string; since: Date }
  | { kind: 'Blocked'; reason: BlockedReason; message: string; since: Date }
  /** Followers (highest ordinal first, several when maxUnavailable allows), or the leader alone. */
  | { kind: 'DeletePods'; pods: [PodToDelete, ...PodToDelete[]] };

export type RollingStepKind = RollingStep['kind'];

/** Pods at the target (revision and restart request) or on their way to it, and pods still to restart; in ordinal order. */
export interface RollProgress {
  updated: string[];
  pending: string[];
}

export interface RollingPlan {
  step: RollingStep;
  progress: RollProgress;
}
