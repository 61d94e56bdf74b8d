// Which traits name a workload: what maps a change to the workload, or to anything of it, to the traits to reconcile.
// Read loosely, so that a trait whose spec does not validate still wakes up (and reports itself).
import { z } from 'zod';
import { keyOf, type KubeObject, type ObjectKey } from '../kube/object.js';
import type { Lister } from '../informer/store.js';

const workloadRefSchema = z.looseObject({ spec: z.looseObject({ workloadRef: z.looseObject({ name: z.string() }) }) });

/** The name in the trait's spec.workloadRef; undefined when it has none. */
export function workloadNamedBy(trait: unknown): string | undefined {
  return workloadRefSchema.safeParse(trait).data?.spec.workloadRef.name;
}

/** The traits in `workload`'s namespace whose spec.workloadRef names it. */
export function traitsOfWorkload(traits: Lister<KubeObject>, workload: ObjectKey): ObjectKey[] {
  return traits
    .list({ namespace: workload.namespace })
    .filter((trait) => workloadNamedBy(trait) === workload.name)
    .map(keyOf);
}

/**
 * Maps an object of a workload (its StatefulSet, a pod) to the traits naming that workload; `workloadOf` says which
 * workload the object belongs to, or undefined when none.
 */
export function childToTraits(traits: Lister<KubeObject>, workloadOf: (child: KubeObject) => string | undefined): (child: KubeObject) => ObjectKey[] {
  return (child) => {
    const workload = workloadOf(child);
    return workload === undefined ? [] : traitsOfWorkload(traits, { namespace: child.metadata.namespace ?? '', name: workload });
  };
}
