// A trait's reconcile starts here: the trait from the cache, parsed once, and the workload it names, from the cache.
// An invalid trait is the caller's to report; it is left alone until its spec changes.
import { ResourceValidationError } from '@zk-oam/apis';
import type { z } from 'zod';
import { formatKey, type KubeObject, type ObjectKey } from '../kube/object.js';
import { parseObject } from '../kube/parse-object.js';
import type { Lister } from '../informer/store.js';

/** All a trait's schema must give: the workload it applies to, in its own namespace (OAM's spec.workloadRef). */
export interface Trait {
  readonly spec: { readonly workloadRef: { readonly name: string } };
}

export type TraitReading<T extends Trait> =
  | { readonly kind: 'absent' }
  | { readonly kind: 'invalid'; readonly raw: KubeObject; readonly error: ResourceValidationError }
  | { readonly kind: 'valid'; readonly raw: KubeObject; readonly trait: T; readonly workload: KubeObject | undefined };

export interface TraitCaches {
  readonly traits: Lister<KubeObject>;
  readonly workloads: Lister<KubeObject>;
}

/** `kind` names the trait in a validation error, e.g. `ZookeeperScale`. */
export function readTrait<S extends z.ZodType<Trait>>(caches: TraitCaches, schema: S, kind: string, key: ObjectKey): TraitReading<z.output<S>> {
  const raw = caches.traits.get(key);
  if (raw === undefined) return { kind: 'absent' };
  const trait = parseObject(schema, raw, `${kind} ${formatKey(key)}`);
  if (trait instanceof ResourceValidationError) return { kind: 'invalid', raw, error: trait };
  const workload = caches.workloads.get({ namespace: key.namespace, name: trait.spec.workloadRef.name });
  return { kind: 'valid', raw, trait, workload };
}
