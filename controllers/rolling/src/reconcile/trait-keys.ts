// Maps a workload, its StatefulSet, its pods and events about it to the keys of the rolling traits that name it.
import { INSTANCE_LABEL, workloadOfStatefulSet } from '@zk-oam/apis';
import type { KubeObject, Lister, ObjectKey } from '@zk-oam/runtime';
import { keepFields, keyOf } from '@zk-oam/runtime';
import { z } from 'zod';

const workloadRefSchema = z.looseObject({ spec: z.looseObject({ workloadRef: z.looseObject({ name: z.string() }) }) });

/** The traits in `workload`'s namespace whose spec.workloadRef names it. */
export function traitsOfWorkload(rollings: Lister<KubeObject>, workload: ObjectKey): ObjectKey[] {
  return rollings
    .list({ namespace: workload.namespace })
    .filter((trait) => workloadRefSchema.safeParse(trait).data?.spec.workloadRef.name === workload.name)
    .map(keyOf);
}

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
