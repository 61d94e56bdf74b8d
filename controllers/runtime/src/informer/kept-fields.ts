// Informer transforms that keep only what a controller reads of an object. A cache of 1,000 StatefulSets holds their
// pod templates, most of each object's size, though a controller that owns them may read only a few fields.
import { isDeepStrictEqual } from 'node:util';
import { isRecord } from '../kube/json-record.js';

/** An informer transform: what is cached of an object as the apiserver sent it. */
export type ObjectTransform = (object: Record<string, unknown>) => Record<string, unknown>;

/** What the store, owner mapping and ownership checks need of every object. */
const IDENTITY_METADATA = ['name', 'namespace', 'uid', 'resourceVersion', 'generation', 'labels', 'ownerReferences', 'deletionTimestamp'] as const;

export interface KeptFields {
  /** Keep `metadata.annotations` too (applied hashes and markers live there). */
  readonly annotations?: boolean;
  /** Further paths to keep whole, e.g. `['spec', 'replicas']`. */
  readonly paths?: readonly (readonly string[])[];
}

/** Copies `from`'s value at `path` (from its `at`th step on) into `to`, making the records on the way. */
function copyPath(from: Record<string, unknown>, to: Record<string, unknown>, path: readonly string[], at = 0): void {
  const head = path[at];
  if (head === undefined || !(head in from)) return;
  const value = from[head];
  if (at === path.length - 1) {
    to[head] = value;
    return;
  }
  if (!isRecord(value)) return;
  const existing = to[head];
  const child = isRecord(existing) ? existing : {};
  copyPath(value, child, path, at + 1);
  if (Object.keys(child).length > 0) to[head] = child;
}

/** Each transform made, by what it keeps. */
const madeTransforms = new Map<string, ObjectTransform>();

/**
 * A transform keeping an object's identity metadata and the given fields; an object without metadata is kept whole.
 * Equal fields give the same transform, so that informers of several controllers that keep alike are known to parse
 * alike (reflector-pool.ts) and cache one object between them.
 */
export function keepFields(kept: KeptFields): ObjectTransform {
  const key = JSON.stringify([kept.annotations === true, kept.paths ?? []]);
  const made = madeTransforms.get(key);
  if (made !== undefined) return made;
  const transform = makeTransform(kept);
  madeTransforms.set(key, transform);
  return transform;
}

function makeTransform(kept: KeptFields): ObjectTransform {
  const metadataFields: readonly string[] = kept.annotations === true ? [...IDENTITY_METADATA, 'annotations'] : IDENTITY_METADATA;
  const paths = [...metadataFields.map((field) => ['metadata', field]), ...(kept.paths ?? [])];
  return (object) => {
    if (!isRecord(object['metadata'])) return object;
    const result: Record<string, unknown> = { metadata: {} };
    for (const path of paths) copyPath(object, result, path);
    for (const field of ['apiVersion', 'kind']) if (field in object) result[field] = object[field];
    return result;
  };
}

/** An object as cached, without the resourceVersion every update moves. */
function withoutResourceVersion(object: object): object {
  if (!('metadata' in object) || !isRecord(object.metadata)) return object;
  const { resourceVersion: _moved, ...metadata } = object.metadata;
  return { ...object, metadata };
}

/**
 * Whether an update changed more than the resourceVersion of the object as cached. Behind a keepFields transform that
 * is whether it changed anything a reconcile reads: the scheduler's retries on an unschedulable pod, or a
 * PodDisruptionBudget's counts, move the resourceVersion and nothing kept.
 */
export function keptFieldsChanged(old: object, object: object): boolean {
  return !isDeepStrictEqual(withoutResourceVersion(old), withoutResourceVersion(object));
}

/**
 * keptFieldsChanged of the part of a cached object that `kept` names: for a controller whose cache keeps more than it
 * reads, a set of fields shared with the other controllers of its process so that they share one parse.
 */
export function keptFieldsChangedIn(kept: KeptFields): (old: Record<string, unknown>, object: Record<string, unknown>) => boolean {
  const transform = keepFields(kept);
  return (old, object) => keptFieldsChanged(transform(old), transform(object));
}
