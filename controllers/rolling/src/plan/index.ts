// The rolling trait's step planner: observed state in, the next step of a leader-aware rolling restart out.
export { planRollingStep } from './plan.js';
export { storedHandover } from './handover.js';
export { downPods } from './members.js';
export { type PodView, type RollingPlanInput, type RollingPlanStatus, type StatefulSetView } from './input.js';
export { restartRequestTime, type RestartRequest } from './restart-request.js';
export {
  WAIT_REASONS,
  type BlockedReason,
  type HandoverRecord,
  type PodToDelete,
  type RollingPlan,
  type RollingStep,
  type RollingStepKind,
  type RollProgress,
  type WaitReason,
} from './step.js';
export { WAITING_CONDITION_TYPE, waitingSince, waitingVerdict } from './wait-clock.js';
