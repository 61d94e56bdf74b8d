// Maps a workload's StatefulSet and pods to the keys of the rolling traits that name the workload (the workload itself
// and events about it map through the kit's traitsOfWorkload).
import { INSTANCE_LABEL, workloadOfStatefulSet } from '@zk-oam/apis';
import type { KubeObject, Lister, ObjectKey } from '@zk-oam/runtime';
import { keepFields, traitsOfWorkload } from '@zk-oam/runtime';

/**
 * What the StatefulSet and pod informers keep: identity and labels, all the mapping below reads. Their events only
 * wake the traits; the reconcile reads both kinds fresh from the API (observe.ts).
 */
export const CACHED_CHILD_FIELDS = keepFields({});

/** A member pod names its workload in the instance label; the StatefulSet is named after the workload. */
export function traitsOfChild(rollings: Lister<KubeObject>, child: KubeObject, kind: 'pod' | 'statefulSet'): ObjectKey[] {
  const workload = kind === 'pod' ? child.metadata.labels?.[INSTANCE_LABEL] : workloadOfStatefulSet(child.metadata.name);
  return workload === undefined ? [] : traitsOfWorkload(rollings, { namespace: child.metadata.namespace ?? '', name: workload });
}
