// Step 1: what the reconcile starts from, read from the caches: the workload, parsed once, and its live StatefulSet.
// An invalid workload is reported (reportBlocked) and left alone.
import type { V1StatefulSet } from '@kubernetes/client-node';
import { ResourceValidationError, zookeeperWorkloadSchema, type ZookeeperWorkload } from '@zk-oam/apis';
import { formatKey, parseObject, type KubeObject, type ObjectKey } from '@zk-oam/runtime';
import { workloadNames } from '../render/identity.js';
import { statefulSetView } from './views.js';
import type { WorkloadReconcilerDependencies } from './dependencies.js';

export type WorkloadReading =
  | { readonly kind: 'absent' }
  | { readonly kind: 'deleting' }
  | { readonly kind: 'invalid'; readonly raw: KubeObject; readonly error: ResourceValidationError }
  | {
      readonly kind: 'valid';
      readonly raw: KubeObject;
      readonly workload: ZookeeperWorkload;
      /** The StatefulSet as the cache has it; undefined before it is created. */
      readonly statefulSet: V1StatefulSet | undefined;
    };

export type ValidWorkload = Extract<WorkloadReading, { readonly kind: 'valid' }>;

export function readWorkload(deps: Pick<WorkloadReconcilerDependencies, 'caches'>, key: ObjectKey): WorkloadReading {
  const raw = deps.caches.workloads.get(key);
  if (raw === undefined) return { kind: 'absent' };
  // Children go with it through garbage collection; nothing to do while it is being deleted.
  if (raw.metadata.deletionTimestamp !== undefined) return { kind: 'deleting' };
  const workload = parseObject(zookeeperWorkloadSchema, raw, `ZookeeperWorkload ${formatKey(key)}`);
  if (workload instanceof ResourceValidationError) return { kind: 'invalid', raw, error: workload };
  return { kind: 'valid', raw, workload, statefulSet: liveStatefulSet(deps, workload) };
}

function liveStatefulSet(deps: Pick<WorkloadReconcilerDependencies, 'caches'>, workload: ZookeeperWorkload): V1StatefulSet | undefined {
  const names = workloadNames(workload);
  const cached = deps.caches.statefulSets.get({ namespace: names.namespace, name: names.statefulSet });
  return cached === undefined ? undefined : statefulSetView(cached);
}
