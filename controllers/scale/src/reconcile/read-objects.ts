// Step: read. The trait and the workload it names, from the caches, parsed once with the API's zod schemas.
import { parseResource, ResourceValidationError, zookeeperScaleSchema, zookeeperWorkloadSchema, type ZookeeperScale, type ZookeeperWorkload } from '@zk-oam/apis';
import { formatKey, keyOf, type KubeObject, type ObjectKey } from '@zk-oam/runtime';
import type { z } from 'zod';
import type { ScaleCaches } from './dependencies.js';

export type TraitReading =
  | { kind: 'absent' }
  | { kind: 'invalid'; raw: KubeObject; error: ResourceValidationError }
  | { kind: 'valid'; raw: KubeObject; trait: ZookeeperScale; workload: KubeObject | undefined };

export function readTrait(caches: Pick<ScaleCaches, 'traits' | 'workloads'>, key: ObjectKey): TraitReading {
  const raw = caches.traits.get(key);
  if (raw === undefined) return { kind: 'absent' };
  const trait = parsed(zookeeperScaleSchema, raw, `ZookeeperScale ${formatKey(key)}`);
  if (trait instanceof ResourceValidationError) return { kind: 'invalid', raw, error: trait };
  const workload = caches.workloads.get({ namespace: key.namespace, name: trait.spec.workloadRef.name });
  return { kind: 'valid', raw, trait, workload };
}

/** The bound workload parsed; a workload that does not validate is its own controller's to report. */
export function parseWorkload(raw: KubeObject): ZookeeperWorkload | ResourceValidationError {
  return parsed(zookeeperWorkloadSchema, raw, `ZookeeperWorkload ${formatKey(keyOf(raw))}`);
}

function parsed<S extends z.ZodType>(schema: S, raw: KubeObject, subject: string): z.output<S> | ResourceValidationError {
  try {
    return parseResource(schema, raw, subject);
  } catch (error) {
    if (error instanceof ResourceValidationError) return error;
    throw error;
  }
}
