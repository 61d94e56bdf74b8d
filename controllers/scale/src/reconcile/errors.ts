// Errors of the scale reconcile: a failed step names itself, the trait and a stable reason (the Warning Event's and
// the Ready condition's), keeping what failed as its cause. The steps and the reasons they share are the rolling
// trait's too (apis' TRAIT_STEP_REASONS).
import { ZOOKEEPER_SCALE, type ScaleReason, type TraitStep, type TraitStepReason } from '@zk-oam/apis';
import { stepRunner } from '@zk-oam/runtime';

export type ErrorCategory = TraitStepReason | Extract<ScaleReason, 'ReplicasUpdateFailed' | 'ConfirmWriteFailed' | 'VolumeDeleteFailed'>;

/** Runs one step; a failure is rethrown as a ReconcileStepError carrying the reason (the controller retries with backoff). */
export const inStep = stepRunner<TraitStep, ErrorCategory>(ZOOKEEPER_SCALE.kind);
