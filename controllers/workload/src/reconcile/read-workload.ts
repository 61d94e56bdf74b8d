// Step 1: the workload from the cache, parsed once. An invalid one is reported (reportBlocked) and left alone.
import { ResourceValidationError, zookeeperWorkloadSchema, type ZookeeperWorkload } from '@zk-oam/apis';
import { formatKey, parseObject, type KubeObject, type ObjectKey } from '@zk-oam/runtime';
import type { WorkloadReconcilerDependencies } from './dependencies.js';

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
  const workload = parseObject(zookeeperWorkloadSchema, raw, `ZookeeperWorkload ${formatKey(key)}`);
  return workload instanceof ResourceValidationError ? { kind: 'invalid', raw, error: workload } : { kind: 'valid', raw, workload };
}
