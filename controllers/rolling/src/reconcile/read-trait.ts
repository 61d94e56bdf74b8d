// Step 1: the trait from the cache, parsed once, and its workload from the cache. An invalid trait is reported and left
// alone until its spec changes (the CRD's schema refuses most such specs before they are stored).
import { parseResource, ResourceValidationError, zookeeperRollingSchema, type ZookeeperRolling } from '@zk-oam/apis';
import { formatKey, type KubeObject, type ObjectKey } from '@zk-oam/runtime';
import type { RollingReconcilerDependencies } from './dependencies.js';

export type TraitReading =
  | { readonly kind: 'absent' }
  | { readonly kind: 'invalid'; readonly raw: KubeObject; readonly error: ResourceValidationError }
  | { readonly kind: 'valid'; readonly raw: KubeObject; readonly trait: ZookeeperRolling; readonly workload: KubeObject | undefined };

export function readTrait(deps: Pick<RollingReconcilerDependencies, 'caches'>, key: ObjectKey): TraitReading {
  const raw = deps.caches.rollings.get(key);
  if (raw === undefined) return { kind: 'absent' };
  try {
    const trait = parseResource(zookeeperRollingSchema, raw, `ZookeeperRolling ${formatKey(key)}`);
    const workload = deps.caches.workloads.get({ namespace: key.namespace, name: trait.spec.workloadRef.name });
    return { kind: 'valid', raw, trait, workload };
  } catch (error) {
    if (error instanceof ResourceValidationError) return { kind: 'invalid', raw, error };
    throw error;
  }
}
