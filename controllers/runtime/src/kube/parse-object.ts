// An object read from the API (or a cache) parsed once with its kind's zod schema, defaults applied; a controller
// reports one that does not validate instead of failing on it.
import { parseResource, ResourceValidationError } from '@zk-oam/apis';
import type { z } from 'zod';

/** The parsed object, or the error naming every rejected field; `subject` names it, e.g. `ZookeeperScale ns/name`. */
export function parseObject<S extends z.ZodType>(schema: S, data: unknown, subject: string): z.output<S> | ResourceValidationError {
  try {
    return parseResource(schema, data, subject);
  } catch (error) {
    if (error instanceof ResourceValidationError) return error;
    throw error;
  }
}
