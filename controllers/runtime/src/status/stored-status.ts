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

/** Whether `next` would store as `stored` is: a status never stored is always news. `stored` is never changed afterwards (storedStatus' kept parse). */
export function sameStatus<S extends z.ZodType>(schema: S, stored: z.output<S> | undefined, next: z.output<S>): boolean {
  // The stored one is storedStatus' kept parse, the same object at each reconcile until its next version.
  return stored !== undefined && isDeepStrictEqual(keptParse(stored, schema, () => asStored(schema, stored)), asStored(schema, next));
}

/** Through JSON and the schema, as the API server and the informer would: key order, undefined fields and defaults left out of account. */
function asStored(schema: z.ZodType, status: unknown): unknown {
  const json: unknown = JSON.parse(JSON.stringify(status));
  const parsed = schema.safeParse(json);
  return parsed.success ? parsed.data : json;
}
