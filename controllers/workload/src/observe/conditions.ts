// The conditions the workload's status reports, as decided from the observation; the kit's setConditions dates them.
import type { WorkloadReason } from '@zk-oam/apis';
import type { ConditionVerdict as KitVerdict } from '@zk-oam/runtime';

export type ConditionType = 'Ready' | 'Progressing' | 'Degraded';

/** A condition as decided from the observation, before time and generation are stamped. */
export interface ConditionVerdict extends KitVerdict {
  type: ConditionType;
  /** One docs/troubleshooting.md explains. */
  reason: WorkloadReason;
}
