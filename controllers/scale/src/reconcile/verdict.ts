// What one reconcile concluded, before anything is done or written (pure): the member change to make, the status, its
// announcements and the next look are all derived from it.
import type { ScaleReason, ZookeeperWorkload } from '@zk-oam/apis';
import type { InvalidTraitVerdict, LockOutcome } from '@zk-oam/runtime';
import { changesWorld, type ScalePlan, type ScalePlanInput, type WorldChange } from '../plan/index.js';

export type ScaleVerdict =
  /** The trait's spec does not validate: nothing is done, and the status keeps all it recorded. */
  | InvalidTraitVerdict
  /** No workload to act on: a binding problem, a workload that does not validate, or one this controller cannot scale. */
  | { readonly kind: 'Unbound'; readonly reason: ScaleReason; readonly message: string }
  | PlannedVerdict;

export interface PlannedVerdict {
  readonly kind: 'Planned';
  readonly plan: ScalePlan;
  /** The StatefulSet's selector, as the scale subresource shows it. */
  readonly selector: string | undefined;
  /** The disruption lock's Lease, named in the status while another operation holds it. */
  readonly lease: string;
  readonly lock: LockOutcome;
  readonly workload: ZookeeperWorkload;
  /** What the plan was made from: where the member change's admin session connects. */
  readonly input: ScalePlanInput;
}

/** A verdict as the status reads it: without what only carrying out its change needs. */
export type Finding = Exclude<ScaleVerdict, PlannedVerdict> | Omit<PlannedVerdict, 'workload' | 'input'>;

/** The member change to make now: the plan's, and only while this trait holds the lock. */
export function changeToMake(verdict: ScaleVerdict): WorldChange | undefined {
  if (verdict.kind !== 'Planned' || verdict.lock.kind !== 'held' || !changesWorld(verdict.plan.action)) return undefined;
  return verdict.plan.action;
}
