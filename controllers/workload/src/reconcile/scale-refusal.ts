// A spec.replicas change refused for want of a scale trait: what is refused, the ScaleRefused condition (present only
// while it is) and its Warning Event, recorded once per refused change.
import type { Condition, WorkloadReason, ZookeeperWorkloadStatus } from '@zk-oam/apis';
import { setCondition, storedStatus, type ConditionContext, type KubeObject, type Logger } from '@zk-oam/runtime';
import type { WorkloadReconcilerDependencies } from './dependencies.js';
import { WORKLOAD_STATUS } from './resources.js';

export const SCALE_REFUSED_CONDITION = 'ScaleRefused';
export const SCALE_REFUSED_REASON: WorkloadReason = 'ScaleTraitRequired';

export interface ScaleRefusal {
  readonly from: number;
  readonly to: number;
  readonly message: string;
}

export function refusalMessage(from: number, to: number): string {
  return (
    `spec.replicas changed from ${from} to ${to}; membership changes need a ZookeeperScale trait ` +
    `(scale.zookeeper.zkoam.dev) bound to this workload; kept ${from}`
  );
}

function storedRefusal(stored: ZookeeperWorkloadStatus | undefined): Condition | undefined {
  return stored?.conditions?.find((condition) => condition.type === SCALE_REFUSED_CONDITION);
}

/** `status` with the ScaleRefused condition added while `refusal` holds; its time moves only when it appears. */
export function withScaleRefusal(
  status: ZookeeperWorkloadStatus,
  refusal: ScaleRefusal | undefined,
  stored: ZookeeperWorkloadStatus | undefined,
  context: ConditionContext,
): ZookeeperWorkloadStatus {
  const others = (status.conditions ?? []).filter((condition) => condition.type !== SCALE_REFUSED_CONDITION);
  if (refusal === undefined) return { ...status, conditions: others };
  // Set over the stored refusal: it alone knows since when the change is refused.
  const before = storedRefusal(stored);
  const verdict = { type: SCALE_REFUSED_CONDITION, status: 'True', reason: SCALE_REFUSED_REASON, message: refusal.message } as const;
  return { ...status, conditions: setCondition(before === undefined ? others : [...others, before], verdict, context) };
}

/** The Warning Event is recorded once per refused change, not on every resync. */
export function isNewRefusal(refusal: ScaleRefusal | undefined, stored: ZookeeperWorkloadStatus | undefined): boolean {
  return refusal !== undefined && storedRefusal(stored)?.message !== refusal.message;
}

/** Records the Warning Event for a refusal the status stored on `raw` does not show yet. */
export async function announceRefusal(deps: Pick<WorkloadReconcilerDependencies, 'recorder'>, raw: KubeObject, refusal: ScaleRefusal | undefined, log: Logger): Promise<void> {
  if (refusal === undefined || !isNewRefusal(refusal, storedStatus(WORKLOAD_STATUS.schema, raw))) return;
  log.warn({ from: refusal.from, to: refusal.to }, 'refused a replicas change without a scale trait');
  await deps.recorder.record(raw, { type: 'Warning', reason: SCALE_REFUSED_REASON, action: 'Scale', note: refusal.message });
}
