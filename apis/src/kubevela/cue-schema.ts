// A structural OpenAPI schema (what our CRDs carry, generated from the zod schemas) written as a CUE `parameter`
// block, so that KubeVela users get the same types, enums, bounds and defaults our CRDs enforce; pure. CEL rules have
// no CUE counterpart: the API server still enforces them when KubeVela applies the object.
import type { JsonSchemaProps } from '../crd/types.js';

const IDENTIFIER = /^[A-Za-z][A-Za-z0-9_]*$/;

function label(name: string): string {
  return IDENTIFIER.test(name) ? name : JSON.stringify(name);
}

function literal(value: unknown): string {
  return JSON.stringify(value);
}

function numberConstraints(schema: JsonSchemaProps, base: 'int' | 'number'): string {
  const parts: string[] = [base];
  if (schema.minimum !== undefined) parts.push(`${schema.exclusiveMinimum === true ? '>' : '>='}${String(schema.minimum)}`);
  if (schema.maximum !== undefined) parts.push(`${schema.exclusiveMaximum === true ? '<' : '<='}${String(schema.maximum)}`);
  return parts.join(' & ');
}

function stringConstraints(schema: JsonSchemaProps): string {
  const parts: string[] = ['string'];
  if (schema.pattern !== undefined) parts.push(`=~${literal(schema.pattern)}`);
  if (schema.minLength !== undefined) parts.push(`strings.MinRunes(${String(schema.minLength)})`);
  if (schema.maxLength !== undefined) parts.push(`strings.MaxRunes(${String(schema.maxLength)})`);
  return parts.join(' & ');
}

function indent(text: string, depth: number): string {
  return text
    .split('\n')
    .map((line) => (line === '' ? line : `${'\t'.repeat(depth)}${line}`))
    .join('\n');
}

function comment(description: string | undefined): string {
  return description === undefined ? '' : `${description.split('\n').map((line) => `// ${line}`.trimEnd()).join('\n')}\n`;
}

function objectType(schema: JsonSchemaProps, omit: ReadonlySet<string>): string {
  if (schema['x-kubernetes-preserve-unknown-fields'] === true && schema.properties === undefined) return '{...}';
  if (schema.additionalProperties !== undefined) return `{[string]: ${cueType(schema.additionalProperties)}}`;
  const required = new Set(schema.required ?? []);
  const fields = Object.entries(schema.properties ?? {})
    .filter(([name]) => !omit.has(name))
    .map(([name, property]) => `${comment(property.description)}${field(name, property, required.has(name))}`);
  // Closed, as the CRD's structural schema is: a misspelt field is an error, not a field silently dropped.
  return fields.length === 0 ? 'close({})' : `close({\n${indent(fields.join('\n'), 1)}\n})`;
}

/** The CUE type of a schema node, without its default. */
export function cueType(schema: JsonSchemaProps, omit: ReadonlySet<string> = new Set()): string {
  if (schema.enum !== undefined) return schema.enum.map(literal).join(' | ');
  if (schema['x-kubernetes-int-or-string'] === true) return 'int | string';
  switch (schema.type) {
    case 'object':
      return objectType(schema, omit);
    case 'array':
      return `[...${schema.items === undefined ? '_' : cueType(schema.items)}]`;
    case 'string':
      return stringConstraints(schema);
    case 'integer':
      return numberConstraints(schema, 'int');
    case 'number':
      return numberConstraints(schema, 'number');
    case 'boolean':
      return 'bool';
    case undefined:
      return '_';
  }
}

/**
 * One field: a scalar or list default is CUE's default (`*3 | int & >=1`), so the output names it as the CRD would
 * default it; an object's default is left to the CRD (its fields carry their own). Without a default a field the
 * schema does not require is optional (`name?:`).
 */
function field(name: string, schema: JsonSchemaProps, required: boolean): string {
  const type = cueType(schema);
  const scalarDefault = schema.default !== undefined && schema.type !== 'object';
  if (scalarDefault) return `${label(name)}: *${literal(schema.default)} | ${type}`;
  return `${label(name)}${required ? '' : '?'}: ${type}`;
}

/** `parameter: {...}` for an object schema, leaving out the fields named in `omit`. */
export function parameterBlock(schema: JsonSchemaProps, omit: ReadonlySet<string> = new Set()): string {
  return `parameter: ${cueType(schema, omit)}`;
}

/** Whether the CUE text calls the strings package, which the template must then import. */
export function usesStrings(cue: string): boolean {
  return /\bstrings\.[A-Z]/.test(cue);
}
