// An object read from the API (or a cache) parsed once with its kind's zod schema, defaults applied; a controller
// reports one that does not validate instead of failing on it.
import { parseResource, ResourceValidationError } from '@zk-oam/apis';
import type { z } from 'zod';
import { keptParse } from './kept-parse.js';

/**
 * The parsed object, or the error naming every rejected field; `subject` names it, e.g. `ZookeeperScale ns/name`.
 * Parsed once per version of a cached object (keptParse).
 */
export function parseObject<S extends z.ZodType>(schema: S, data: unknown, subject: string): z.output<S> | ResourceValidationError {
  return keptParse(data, schema, () => parseAnew(schema, data, subject));
}

function parseAnew<S extends z.ZodType>(schema: S, data: unknown, subject: string): z.output<S> | ResourceValidationError {
  try {
    return parseResource(schema, data, subject);
  } catch (error) {
    if (error instanceof ResourceValidationError) return error;
    throw error;
  }
}

/** An object lacks a field the controller's narrow view of it reads: it is not what the controller expects. */
export class ObjectShapeError extends Error {
  override readonly name = 'ObjectShapeError';
  constructor(kind: string, name: string, options: ErrorOptions) {
    super(`${kind} ${name} lacks a field the reconcile reads`, options);
  }
}

/** The fields a controller reads of another controller's object (a loose schema), or ObjectShapeError naming it. */
export function parseShape<S extends z.ZodType>(schema: S, object: unknown, kind: string, name: string): z.output<S> {
  const parsed = schema.safeParse(object);
  if (!parsed.success) throw new ObjectShapeError(kind, name, { cause: parsed.error });
  return parsed.data;
}
