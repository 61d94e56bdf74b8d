// A decision inside the planner: the action plus the member change it belongs to, before the step record is settled.
import type { BlockedReason, ScaleAction, WaitReason } from './action.js';

/** Where in a member change the ensemble is, as status.step.stage shows it. */
export type ChangeStage =
  | 'StartingMember'
  | 'WaitingForSync'
  | 'JoiningConfiguration'
  | 'ConfirmingMembership'
  | 'LeavingConfiguration'
  | 'StoppingMember'
  | 'ReleasingVolume';

export interface MemberChange {
  action: 'Add' | 'Remove';
  myid: number;
  stage: ChangeStage;
}

/**
 * `none`: no member change is under way. `unknown`: the planner could not tell (nothing readable, or a state it does
 * not own), so the recorded step stays as it is.
 */
export type ChangeInProgress = MemberChange | 'none' | 'unknown';

export interface Decision {
  action: ScaleAction;
  change: ChangeInProgress;
}

export function adding(myid: number, stage: ChangeStage): MemberChange {
  return { action: 'Add', myid, stage };
}

export function removing(myid: number, stage: ChangeStage): MemberChange {
  return { action: 'Remove', myid, stage };
}

export function waitFor(reason: WaitReason, message: string, change: ChangeInProgress): Decision {
  return { action: { kind: 'Wait', reason, message }, change };
}

export function blockedBy(reason: BlockedReason, message: string, change: ChangeInProgress): Decision {
  return { action: { kind: 'Blocked', reason, message }, change };
}
