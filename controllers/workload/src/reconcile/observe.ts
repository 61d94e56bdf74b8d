// Step 1: what the reconcile starts from, read from the caches: the workload, parsed once, and its live StatefulSet.
// An invalid workload is reported (reportBlocked) and left alone. Its status is not part of that parse: the status step
// reads it through storedStatus, whose parse of each stored status this one shares.
import type { V1StatefulSet } from '@kubernetes/client-node';
import { ResourceValidationError, zookeeperWorkloadSchema, type ZookeeperWorkload } from '@zk-oam/apis';
import { formatKey, parseObject, storedStatus, type KubeObject, type ObjectKey } from '@zk-oam/runtime';
import { workloadNames } from '../render/identity.js';
import { statefulSetView } from './views.js';
import type { WorkloadReconcilerDependencies } from './dependencies.js';
import { WORKLOAD_STATUS } from './resources.js';

/** Most versions of a workload in a burst differ in their status alone, which was parsed twice per version. */
const workloadWithoutStatusSchema = zookeeperWorkloadSchema.omit({ status: true });

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
  const parsed = parseObject(workloadWithoutStatusSchema, raw, `ZookeeperWorkload ${formatKey(key)}`);
  if (parsed instanceof ResourceValidationError) return { kind: 'invalid', raw, error: parsed };
  const status = storedStatus(WORKLOAD_STATUS.schema, raw);
  const workload: ZookeeperWorkload = status === undefined ? parsed : { ...parsed, status };
  return { kind: 'valid', raw, workload, statefulSet: liveStatefulSet(deps, workload) };
}

function liveStatefulSet(deps: Pick<WorkloadReconcilerDependencies, 'caches'>, workload: ZookeeperWorkload): V1StatefulSet | undefined {
  const names = workloadNames(workload);
  const cached = deps.caches.statefulSets.get({ namespace: names.namespace, name: names.statefulSet });
  return cached === undefined ? undefined : statefulSetView(cached);
}
