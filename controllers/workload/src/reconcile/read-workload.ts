// Step 1: the workload from the cache, parsed once. An invalid one is reported (condition + Event) and left alone.
import { kubernetesTime, parseResource, ResourceValidationError, zookeeperWorkloadSchema, type Condition, type WorkloadReason, type ZookeeperWorkload } from '@zk-oam/apis';
import { formatKey, type KubeObject, type ObjectKey } from '@zk-oam/runtime';
import type { WorkloadReconcilerDependencies } from './dependencies.js';
import { storedStatus, writeStatusIfChanged } from './status-writer.js';

export type WorkloadReading =
  | { readonly kind: 'absent' }
  | { readonly kind: 'deleting' }
  | { readonly kind: 'invalid'; readonly raw: KubeObject; readonly error: ResourceValidationError }
  | { readonly kind: 'valid'; readonly raw: KubeObject; readonly workload: ZookeeperWorkload };

export function readWorkload(deps: Pick<WorkloadReconcilerDependencies, 'caches'>, key: ObjectKey): WorkloadReading {
  const raw = deps.caches.workloads.get(key);
  if (raw === undefined) return { kind: 'absent' };
  // Children go with it through garbage collection; nothing to do while it is being deleted.
  if (raw.metadata.deletionTimestamp !== undefined) return { kind: 'deleting' };
  try {
    return { kind: 'valid', raw, workload: parseResource(zookeeperWorkloadSchema, raw, `ZookeeperWorkload ${formatKey(key)}`) };
  } catch (error) {
    if (error instanceof ResourceValidationError) return { kind: 'invalid', raw, error };
    throw error;
  }
}

const INVALID_REASON: WorkloadReason = 'InvalidSpec';

/** Ready=False/InvalidSpec, and a Warning Event when that is news; the next spec change reconciles again. */
export async function reportInvalidWorkload(
  deps: Pick<WorkloadReconcilerDependencies, 'client' | 'recorder' | 'now'>,
  key: ObjectKey,
  raw: KubeObject,
  error: ResourceValidationError,
): Promise<void> {
  const stored = storedStatus(raw['status']);
  const message = error.message.slice(0, 4096);
  const previousReady = stored?.conditions?.find((condition) => condition.type === 'Ready');
  if (previousReady?.reason === INVALID_REASON && previousReady.message === message) return;
  const ready: Condition = {
    type: 'Ready',
    status: 'False',
    reason: INVALID_REASON,
    message,
    ...(raw.metadata.generation === undefined ? {} : { observedGeneration: raw.metadata.generation }),
    lastTransitionTime: previousReady?.status === 'False' ? previousReady.lastTransitionTime : kubernetesTime(deps.now()),
  };
  const conditions = [...(stored?.conditions ?? []).filter((condition) => condition.type !== 'Ready'), ready];
  await writeStatusIfChanged(deps.client, key, stored, { ...stored, conditions });
  await deps.recorder.record(raw, { type: 'Warning', reason: INVALID_REASON, action: 'Validate', note: message });
}
