// Maps anything about a workload (the workload, its StatefulSet, pods, volumes, NATS events) to the traits naming it.
import type { KubeObject, Lister, ObjectKey } from '@zk-oam/runtime';
import { z } from 'zod';

const referenceSchema = z.looseObject({ spec: z.looseObject({ workloadRef: z.looseObject({ name: z.string() }) }) });

export function traitsOfWorkload(traits: Lister<KubeObject>, workload: ObjectKey): ObjectKey[] {
  return traits
    .list({ namespace: workload.namespace })
    .filter((trait) => referenceSchema.safeParse(trait).data?.spec.workloadRef.name === workload.name)
    .map((trait) => ({ namespace: workload.namespace, name: trait.metadata.name }));
}
