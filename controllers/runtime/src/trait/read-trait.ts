// A trait's reconcile starts here: the trait from the cache, parsed once, and the workload it names, from the cache.
// An invalid trait is the caller's to report; it is left alone until its spec changes.
import { ResourceValidationError } from '@zk-oam/apis';
import type { z } from 'zod';
import { done, type ReconcileResult } from '../controller/reconciler.js';
import { formatKey, type KubeObject, type ObjectKey } from '../kube/object.js';
import { parseObject } from '../kube/parse-object.js';
import type { Listers } from '../informer/store.js';
import type { Logger } from '../logging/logger.js';
import type { RequeuePacer } from '../queue/requeue-pacer.js';
import { conditionMessage } from '../status/condition.js';
import type { TraitStateMetrics } from './trait-state-metrics.js';

/** All a trait's schema must give: the workload it applies to, in its own namespace (OAM's spec.workloadRef). */
export interface Trait {
  readonly spec: { readonly workloadRef: { readonly name: string } };
}

export type TraitReading<T extends Trait> =
  | { readonly kind: 'absent' }
  | { readonly kind: 'invalid'; readonly raw: KubeObject; readonly error: ResourceValidationError }
  | { readonly kind: 'valid'; readonly raw: KubeObject; readonly trait: T; readonly workload: KubeObject | undefined };

export type TraitCaches = Listers<'traits' | 'workloads'>;

/** `kind` names the trait in a validation error, e.g. `ZookeeperScale`. */
export function readTrait<S extends z.ZodType<Trait>>(caches: TraitCaches, schema: S, kind: string, key: ObjectKey): TraitReading<z.output<S>> {
  const raw = caches.traits.get(key);
  if (raw === undefined) return { kind: 'absent' };
  const trait = parseObject(schema, raw, `${kind} ${formatKey(key)}`);
  if (trait instanceof ResourceValidationError) return { kind: 'invalid', raw, error: trait };
  const workload = caches.workloads.get({ namespace: key.namespace, name: trait.spec.workloadRef.name });
  return { kind: 'valid', raw, trait, workload };
}

/** What the process keeps per trait, let go of when the trait is gone: its place in the pacer and its metrics. */
export interface TraitKeeping {
  readonly pacer: Pick<RequeuePacer, 'release'>;
  readonly traitMetrics: Pick<TraitStateMetrics, 'forget'>;
}

/** A trait gone from the cache: nothing is left to do for it but forget it. */
export function forgetTrait(keeping: TraitKeeping, key: ObjectKey): ReconcileResult {
  keeping.pacer.release(formatKey(key));
  keeping.traitMetrics.forget(key);
  return done;
}

/** The verdict on a trait that does not validate: its Ready condition says why, and nothing else is done. */
export interface InvalidTraitVerdict {
  readonly kind: 'Invalid';
  readonly message: string;
}

/** Logged once per reconcile of the invalid trait; the trait is looked at again when its spec changes. */
export function invalidTraitVerdict(error: ResourceValidationError, log: Logger): InvalidTraitVerdict {
  log.warn({ problems: error.problems }, 'trait does not validate; reported, waiting for a spec change');
  return { kind: 'Invalid', message: conditionMessage(error.message) };
}
