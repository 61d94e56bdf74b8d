// A kind's status as the API stores it, read through the kind's zod schema: what a controller derives its next status
// from, and compares that status with so that one saying nothing new costs no write.
import { isDeepStrictEqual } from 'node:util';
import type { z } from 'zod';
import { keptParse } from '../kube/kept-parse.js';
import type { KubeObject } from '../kube/object.js';

/** The object's status when it parses; a malformed one counts as none (it is then rewritten whole). Parsed once per version. */
export function storedStatus<S extends z.ZodType>(schema: S, object: KubeObject): z.output<S> | undefined {
  const status = object['status'];
  return keptParse(status, schema, () => schema.safeParse(status).data);
}

/**
 * The JSON of the last status found to store as a stored one is, kept beside that stored status: a status that says
 * nothing new is what most reconciles derive, and its trip through JSON and the schema (asStored) was about a
 * twentieth of the workload controller's CPU in a burst. The same JSON stores the same, so it is not parsed again.
 */
const sameAs = new WeakMap<object, { readonly schema: z.ZodType; readonly json: string }>();

/** Whether `next` would store as `stored` is: a status never stored is always news. `stored` is never changed afterwards (storedStatus' kept parse). */
export function sameStatus<S extends z.ZodType>(schema: S, stored: z.output<S> | undefined, next: z.output<S>): boolean {
  if (stored === undefined) return false;
  const json = JSON.stringify(next);
  const known = typeof stored === 'object' && stored !== null ? sameAs.get(stored) : undefined;
  if (known?.schema === schema && known.json === json) return true;
  // The stored one is storedStatus' kept parse, the same object at each reconcile until its next version.
  const same = isDeepStrictEqual(keptParse(stored, schema, () => asStored(schema, JSON.stringify(stored))), asStored(schema, json));
  if (same && typeof stored === 'object' && stored !== null) sameAs.set(stored, { schema, json });
  return same;
}

/** Through JSON and the schema, as the API server and the informer would: key order, undefined fields and defaults left out of account. */
function asStored(schema: z.ZodType, json: string): unknown {
  const value: unknown = JSON.parse(json);
  const parsed = schema.safeParse(value);
  return parsed.success ? parsed.data : value;
}
