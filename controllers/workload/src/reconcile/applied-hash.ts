// The hash that says whether a rendered child differs from what was last applied; pure.
import { createHash } from 'node:crypto';
import { APPLIED_HASH_ANNOTATION } from './resources.js';

interface Annotated {
  metadata?: { annotations?: Record<string, string> | undefined } | undefined;
}

/** An integer key, which a JavaScript object lists first, in numeric order, whatever order it was set in. */
const ARRAY_INDEX = /^(0|[1-9][0-9]*)$/;
const isIndex = (key: string): boolean => ARRAY_INDEX.test(key) && Number(key) < 2 ** 32 - 1;
const dropped = (value: unknown): boolean => value === undefined || typeof value === 'function' || typeof value === 'symbol';

/**
 * An object's keys in canonical order: the integer keys, which Object.keys already lists first in numeric order, then
 * the others by UTF-16 code units (the default sort's order).
 */
function canonicalKeys(object: object): string[] {
  const keys = Object.keys(object);
  let indexes = 0;
  while (indexes < keys.length && isIndex(keys[indexes] ?? '')) indexes += 1;
  return indexes === 0 ? keys.sort() : [...keys.slice(0, indexes), ...keys.slice(indexes).sort()];
}

/**
 * Canonical JSON (sorted keys, undefined dropped), so equal objects hash equally whatever their key order: what
 * JSON.stringify gives of the object rebuilt with sorted keys (integer keys first, as an object orders them), written
 * out directly into one string. The workload controller hashes every rendered child at each reconcile: rebuilding
 * every nested object was a twentieth of its CPU in a burst, and the arrays, Maps and closures made per object after
 * that still a fifteenth.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if ('toJSON' in value && typeof value.toJSON === 'function') return canonicalJson(value.toJSON());
  if (Array.isArray(value)) {
    let json = '[';
    for (let index = 0; index < value.length; index += 1) {
      const item: unknown = value[index];
      json += `${index === 0 ? '' : ','}${dropped(item) ? 'null' : canonicalJson(item)}`;
    }
    return `${json}]`;
  }
  const record = value as Record<string, unknown>;
  let json = '{';
  for (const key of canonicalKeys(value)) {
    const inner = record[key];
    if (dropped(inner)) continue;
    json += `${json.length === 1 ? '' : ','}${JSON.stringify(key)}:${canonicalJson(inner)}`;
  }
  return `${json}}`;
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
