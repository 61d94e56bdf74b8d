// The hash that says whether a rendered child differs from what was last applied; pure.
import { createHash } from 'node:crypto';
import { APPLIED_HASH_ANNOTATION } from './resources.js';

interface Annotated {
  metadata?: { annotations?: Record<string, string> | undefined } | undefined;
}

/** Canonical JSON (sorted keys, undefined dropped), so equal objects hash equally whatever their key order. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner !== null && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner,
  );
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
