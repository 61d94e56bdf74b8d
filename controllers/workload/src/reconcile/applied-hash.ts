// The hash that says whether a rendered child differs from what was last applied; pure.
import { createHash } from 'node:crypto';
import { APPLIED_HASH_ANNOTATION } from './resources.js';

interface Annotated {
  metadata?: { annotations?: Record<string, string> | undefined } | undefined;
}

/** An integer key, which a JavaScript object lists first, in numeric order, whatever order it was set in. */
const ARRAY_INDEX = /^(0|[1-9][0-9]*)$/;
const isIndex = (key: string): boolean => ARRAY_INDEX.test(key) && Number(key) < 2 ** 32 - 1;
const byCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
const dropped = (value: unknown): boolean => value === undefined || typeof value === 'function' || typeof value === 'symbol';

/**
 * Canonical JSON (sorted keys, undefined dropped), so equal objects hash equally whatever their key order: what
 * JSON.stringify gives of the object rebuilt with sorted keys (integer keys first, as an object orders them), written
 * out directly. Rebuilding every nested object was a twentieth of the workload controller's CPU in a burst, which
 * hashes every rendered child at each reconcile.
 */
export function canonicalJson(value: unknown): string {
  if (value !== null && typeof value === 'object' && 'toJSON' in value && typeof value.toJSON === 'function') return canonicalJson(value.toJSON());
  if (Array.isArray(value)) return `[${value.map((item: unknown) => (dropped(item) ? 'null' : canonicalJson(item))).join(',')}]`;
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const entries = Object.entries(value).filter(([, inner]) => !dropped(inner));
  const keys = entries.map(([key]) => key);
  const ordered = [...keys.filter(isIndex).sort((a, b) => Number(a) - Number(b)), ...keys.filter((key) => !isIndex(key)).sort(byCodeUnits)];
  const byKey = new Map(entries);
  return `{${ordered.map((key) => `${JSON.stringify(key)}:${canonicalJson(byKey.get(key))}`).join(',')}}`;
}

export function appliedHash(object: unknown): string {
  return createHash('sha256').update(canonicalJson(object)).digest('hex').slice(0, 32);
}

/** A copy of `object` with extra annotations merged into its metadata. */
export function withAnnotations<T extends Annotated>(object: T, annotations: Record<string, string>): T {
  const metadata = object.metadata ?? {};
  return { ...object, metadata: { ...metadata, annotations: { ...metadata.annotations, ...annotations } } };
}

/** The object as it will be applied: its own hash in the applied-hash annotation. */
export function stampAppliedHash<T extends Annotated>(object: T): { object: T; hash: string } {
  const hash = appliedHash(object);
  return { object: withAnnotations(object, { [APPLIED_HASH_ANNOTATION]: hash }), hash };
}

export function liveAppliedHash(live: { metadata: { annotations?: Record<string, string> | undefined } } | undefined): string | undefined {
  return live?.metadata.annotations?.[APPLIED_HASH_ANNOTATION];
}
