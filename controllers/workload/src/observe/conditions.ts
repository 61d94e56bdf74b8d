// Builds the status conditions: lastTransitionTime moves only when a condition's status changes.
import { kubernetesTime, type Condition, type WorkloadReason } from '@zk-oam/apis';

export type ConditionType = 'Ready' | 'Progressing' | 'Degraded';

/** A condition as decided from the observation, before time and generation are stamped. */
export interface ConditionVerdict {
  type: ConditionType;
  status: Condition['status'];
  /** One docs/troubleshooting.md explains. */
  reason: WorkloadReason;
  message: string;
}

export function stampConditions(
  verdicts: readonly ConditionVerdict[],
  previous: readonly Condition[] | undefined,
  context: { generation: number | undefined; now: Date },
): Condition[] {
  return verdicts.map((verdict) => {
    const before = previous?.find((condition) => condition.type === verdict.type);
    const lastTransitionTime =
      before !== undefined && before.status === verdict.status ? before.lastTransitionTime : kubernetesTime(context.now);
    return {
      ...verdict,
      ...(context.generation === undefined ? {} : { observedGeneration: context.generation }),
      lastTransitionTime,
    };
  });
}
