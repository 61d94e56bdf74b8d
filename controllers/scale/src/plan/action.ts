// What the scale planner decides: one next step, as a tagged union the controller switches over exhaustively.
import type { ScalePhase, ScaleStep } from '@zk-oam/apis';
import type { ServerEntry, Zxid } from '@zk-oam/zookeeper';

/** Why the plan waits: something our last step set in motion has not finished yet. */
export type WaitReason =
  | 'WaitingForStatefulSet'
  | 'WaitingForPod'
  | 'WaitingForServer'
  | 'WaitingForSync'
  | 'WaitingForLeaderHandover'
  | 'WaitingForQuorum'
  | 'WaitingForPodRemoval'
  | 'WaitingForVolumeRelease'
  | 'WaitingForHealthyEnsemble'
  | 'ConfirmingMembership';

/** Why the plan will not act: the ensemble or the objects are in a state a person has to look at (or wait out). */
export type BlockedReason =
  | 'ConfigUnreadable'
  | 'UnmanagedObserver'
  | 'UnexpectedVoters'
  | 'VoterWithoutPod'
  | 'ReplicasBelowMembership'
  | 'ReplicasAboveMembership'
  | 'MemberUnhealthy'
  | 'QuorumAtRisk'
  | 'StepTimedOut';

export type ScaleAction =
  /** The committed config has the target size and nothing is in transit. */
  | { kind: 'Done' }
  | { kind: 'Wait'; reason: WaitReason; message: string }
  | { kind: 'Blocked'; reason: BlockedReason; message: string }
  /** Patch the workload's spec.replicas up by one: the new member's pod starts as a non-voting observer. */
  | { kind: 'RaiseReplicas'; to: number; member: number }
  /**
   * Reconfig `server` in as a participant, guarded by `fromVersion` (ZBADVERSION if the config moved since it was
   * read, so a stale plan can never apply twice).
   */
  | { kind: 'ReconfigAdd'; member: number; server: ServerEntry; fromVersion: Zxid }
  /** Reconfig `member` out, guarded by `fromVersion`; when it leads, ZooKeeper hands leadership over. */
  | { kind: 'ReconfigRemove'; member: number; fromVersion: Zxid }
  /**
   * Prove the committed config with a write (the admin client's confirmByWrite), then patch the workload's
   * spec.replicas down to `to`: `member`, no longer in the config, is stopped (invariant 2).
   */
  | { kind: 'LowerReplicas'; to: number; member: number }
  /** Delete the PVC of a removed member whose pod is gone (policy Delete), so a later scale-up starts it clean. */
  | { kind: 'DeleteVolume'; pvc: string; member: number };

export type ScaleActionKind = ScaleAction['kind'];

/** The actions that change the world; Done, Wait and Blocked only report. */
export type WorldChange = Exclude<ScaleAction, { kind: 'Done' | 'Wait' | 'Blocked' }>;

export function changesWorld(action: ScaleAction): action is WorldChange {
  return action.kind !== 'Done' && action.kind !== 'Wait' && action.kind !== 'Blocked';
}

export interface ScalePlan {
  action: ScaleAction;
  phase: ScalePhase;
  /** Voters in the committed config (status.replicas); undefined when it could not be read. */
  current: number | undefined;
  target: number;
  /** What status.step should say after this plan is carried out; undefined when no member change is under way. */
  step: ScaleStep | undefined;
}
