// Public surface of the scale planner: the pure function from observed state to the next membership step.
export { planScale } from './plan.js';
export { changesWorld, type WorldChange, type BlockedReason, type ScaleAction, type ScaleActionKind, type ScalePlan, type WaitReason } from './action.js';
export type { CommittedReading, ObservedPod, ObservedVolume, ScalePlanInput } from './input.js';
export { memberOf } from './identity.js';
