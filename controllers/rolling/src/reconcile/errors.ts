// Errors of the rolling reconcile: a failed step names itself, the trait and a stable reason (the Warning Event's and
// the Ready condition's), keeping what failed as its cause. The steps and the reasons they share are the scale
// trait's too (apis' TRAIT_STEP_REASONS).
import { ZOOKEEPER_ROLLING, type RollingReason, type TraitStep, type TraitStepReason } from '@zk-oam/apis';
import { stepRunner } from '@zk-oam/runtime';

export type ErrorCategory = TraitStepReason | Extract<RollingReason, 'PodDeleteFailed'>;

/** Runs one step; a failure is rethrown as a ReconcileStepError carrying the reason (the controller retries with backoff). */
export const inStep = stepRunner<TraitStep, ErrorCategory>(ZOOKEEPER_ROLLING.kind);
