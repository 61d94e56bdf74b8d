// Parsing outside data with a zod schema, with errors that name each field path and what was expected.
import type { z } from 'zod';

/** One rejected field: `spec.replicas: expected number >= 1, got 0`. */
export interface FieldProblem {
  path: string;
  problem: string;
}

export class ResourceValidationError extends Error {
  constructor(
    /** What was parsed, e.g. `ZookeeperWorkload default/zk`. */
    readonly subject: string,
    readonly problems: readonly FieldProblem[],
    options?: ErrorOptions,
  ) {
    super(`invalid ${subject}: ${problems.map((p) => `${p.path}: ${p.problem}`).join('; ')}`, options);
    this.name = 'ResourceValidationError';
  }
}

/** `spec.tolerations[0].key`; the root is `(root)`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let formatted = '';
  for (const segment of path) {
    if (typeof segment === 'number') formatted += `[${segment}]`;
    else formatted += formatted === '' ? String(segment) : `.${String(segment)}`;
  }
  return formatted === '' ? '(root)' : formatted;
}

function describeInput(input: unknown): string {
  if (input === undefined) return 'nothing';
  if (typeof input === 'string') return JSON.stringify(input.length > 80 ? `${input.slice(0, 80)}...` : input);
  if (Array.isArray(input)) return 'an array';
  if (input === null) return 'null';
  if (typeof input === 'object') return 'an object';
  return String(input);
}

function bound(origin: string, comparison: string, limit: number | bigint): string {
  switch (origin) {
    case 'string':
      return `expected string with length ${comparison} ${limit}`;
    case 'array':
    case 'set':
      return `expected ${comparison} ${limit} items`;
    case 'object':
    case 'record':
      return `expected ${comparison} ${limit} keys`;
    default:
      return `expected ${origin} ${comparison} ${limit}`;
  }
}

function formatExpectation(issue: Extract<z.core.$ZodIssue, { code: 'invalid_format' }>): string {
  if (issue.message.startsWith('expected')) return issue.message;
  return `expected ${issue.format}${issue.pattern === undefined ? '' : ` matching ${issue.pattern}`}`;
}

/** What was expected, in words. */
function expectation(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return `expected ${issue.expected === 'int' ? 'integer' : issue.expected}`;
    case 'too_small':
      return bound(issue.origin, issue.inclusive === false ? '>' : '>=', issue.minimum);
    case 'too_big':
      return bound(issue.origin, issue.inclusive === false ? '<' : '<=', issue.maximum);
    case 'invalid_value':
      return `expected one of ${issue.values.map((value) => JSON.stringify(value)).join('|')}`;
    case 'invalid_format':
      return formatExpectation(issue);
    case 'unrecognized_keys':
      return `unexpected keys ${issue.keys.join(', ')}`;
    // zod's own message already says what was expected; listed so that a new issue code is a compile error.
    case 'custom':
    case 'invalid_element':
    case 'invalid_key':
    case 'invalid_union':
    case 'not_multiple_of':
      return issue.message;
  }
}

/** Turns zod issues into field problems; zod must have been asked to `reportInput`. */
export function fieldProblems(error: z.ZodError): FieldProblem[] {
  return error.issues.map((issue) => {
    const got = issue.code === 'unrecognized_keys' ? '' : `, got ${describeInput(issue.input)}`;
    return { path: formatPath(issue.path), problem: `${expectation(issue)}${got}` };
  });
}

/**
 * Parses outside data (an object read from the API, a file, an event) once at the boundary; defaults are applied.
 * Throws ResourceValidationError naming every rejected field.
 */
export function parseResource<S extends z.ZodType>(schema: S, data: unknown, subject: string): z.output<S> {
  const result = schema.safeParse(data, { reportInput: true });
  if (result.success) return result.data;
  throw new ResourceValidationError(subject, fieldProblems(result.error), { cause: result.error });
}
