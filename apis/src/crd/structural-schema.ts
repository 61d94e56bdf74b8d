// Turns a zod schema into a structural OpenAPI schema for a CRD, refusing anything the apiserver would reject.
import { z } from 'zod';
import type { CelRule } from '../common/structural.js';
import type { JsonSchemaProps } from './types.js';

export class StructuralSchemaError extends Error {
  constructor(
    readonly path: string,
    detail: string,
  ) {
    super(`schema at ${path} is not structural: ${detail}`);
    this.name = 'StructuralSchemaError';
  }
}

type JsonNode = Record<string, unknown>;

const TYPES = ['object', 'array', 'string', 'integer', 'number', 'boolean'] as const;
type JsonType = (typeof TYPES)[number];

/** Keys copied as they are once their value has the expected JSON type. */
const NUMBER_KEYS = ['minimum', 'maximum', 'minLength', 'maxLength', 'minItems', 'maxItems', 'maxProperties'] as const;
const BOOLEAN_KEYS = [
  'exclusiveMinimum',
  'exclusiveMaximum',
  'nullable',
  'x-kubernetes-int-or-string',
  'x-kubernetes-preserve-unknown-fields',
  'x-kubernetes-embedded-resource',
] as const;
const STRING_KEYS = ['description', 'format', 'pattern'] as const;
/** Keys zod emits that carry nothing a CRD needs. */
const DROPPED_KEYS = new Set(['$schema', 'propertyNames']);
const HANDLED_KEYS = new Set<string>([
  ...NUMBER_KEYS,
  ...BOOLEAN_KEYS,
  ...STRING_KEYS,
  'type',
  'properties',
  'required',
  'items',
  'additionalProperties',
  'anyOf',
  'enum',
  'default',
  'x-kubernetes-list-type',
  'x-kubernetes-list-map-keys',
  'x-kubernetes-validations',
]);

function isNode(value: unknown): value is JsonNode {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isJsonType(value: unknown): value is JsonType {
  return (TYPES as readonly unknown[]).includes(value);
}

function isEmptyNode(value: unknown): boolean {
  return isNode(value) && Object.keys(value).length === 0;
}

function stringArray(value: unknown, path: string, key: string): string[] {
  if (!Array.isArray(value) || !value.every((item): item is string => typeof item === 'string')) {
    throw new StructuralSchemaError(path, `${key} must be a list of strings`);
  }
  return value;
}

function celRules(value: unknown, path: string): CelRule[] {
  if (!Array.isArray(value)) throw new StructuralSchemaError(path, 'x-kubernetes-validations must be a list');
  return value.map((rule): CelRule => {
    if (!isNode(rule) || typeof rule['rule'] !== 'string' || typeof rule['message'] !== 'string') {
      throw new StructuralSchemaError(path, 'each CEL rule needs a rule and a message');
    }
    const fieldPath = rule['fieldPath'];
    const reason = rule['reason'];
    return {
      rule: rule['rule'],
      message: rule['message'],
      ...(typeof fieldPath === 'string' ? { fieldPath } : {}),
      ...(reason === 'FieldValueInvalid' || reason === 'FieldValueForbidden' || reason === 'FieldValueRequired' || reason === 'FieldValueDuplicate'
        ? { reason }
        : {}),
    };
  });
}

/** zod gives every integer the safe-integer range; only real bounds belong in the CRD. */
function isMeaningfulBound(key: string, value: number): boolean {
  return !((key === 'minimum' || key === 'maximum') && Math.abs(value) === Number.MAX_SAFE_INTEGER);
}

/** The string, number and boolean keys of a node, copied with their types checked. */
function primitiveKeys(node: JsonNode, path: string): JsonSchemaProps {
  const out: JsonSchemaProps = {};
  for (const key of STRING_KEYS) {
    const value = node[key];
    if (value === undefined) continue;
    if (typeof value !== 'string') throw new StructuralSchemaError(path, `${key} must be a string`);
    out[key] = value;
  }
  // The apiserver checks date-time itself; zod's equivalent regex would only add noise.
  if (out.format === 'date-time') delete out.pattern;
  for (const key of NUMBER_KEYS) {
    const value = node[key];
    if (value === undefined) continue;
    if (typeof value !== 'number') throw new StructuralSchemaError(path, `${key} must be a number`);
    if (isMeaningfulBound(key, value)) out[key] = value;
  }
  for (const key of BOOLEAN_KEYS) {
    const value = node[key];
    if (value === undefined) continue;
    if (typeof value !== 'boolean') throw new StructuralSchemaError(path, `${key} must be a boolean`);
    out[key] = value;
  }
  return out;
}

/** `enum`, `default` and the x-kubernetes list and validation keys of a node, checked. */
function constraintKeys(node: JsonNode, path: string): JsonSchemaProps {
  const out: JsonSchemaProps = {};
  if (node['enum'] !== undefined) {
    if (!Array.isArray(node['enum'])) throw new StructuralSchemaError(path, 'enum must be a list');
    out.enum = node['enum'];
  }
  if (node['default'] !== undefined) out.default = node['default'];
  const listType = node['x-kubernetes-list-type'];
  if (listType !== undefined) {
    if (listType !== 'atomic' && listType !== 'set' && listType !== 'map') {
      throw new StructuralSchemaError(path, `unknown x-kubernetes-list-type ${String(listType)}`);
    }
    out['x-kubernetes-list-type'] = listType;
  }
  if (node['x-kubernetes-list-map-keys'] !== undefined) {
    out['x-kubernetes-list-map-keys'] = stringArray(node['x-kubernetes-list-map-keys'], path, 'x-kubernetes-list-map-keys');
  }
  if (node['x-kubernetes-validations'] !== undefined) {
    out['x-kubernetes-validations'] = celRules(node['x-kubernetes-validations'], path);
  }
  return out;
}

/** The value-validation keys of a node, copied with their types checked. */
function scalarKeys(node: JsonNode, path: string): JsonSchemaProps {
  return { ...primitiveKeys(node, path), ...constraintKeys(node, path) };
}

/** `anyOf: [{type: integer}, {type: string}]` is the one anyOf a structural schema may carry; bounds move up. */
function intOrStringNode(node: JsonNode, path: string): JsonSchemaProps {
  const out = scalarKeys(node, path);
  const branches = node['anyOf'];
  if (Array.isArray(branches)) {
    for (const branch of branches) {
      if (!isNode(branch)) throw new StructuralSchemaError(path, 'int-or-string branches must be schemas');
      const branchKeys = scalarKeys(branch, path);
      if (branch['type'] === 'string' && branchKeys.pattern !== undefined) out.pattern = branchKeys.pattern;
      if (branch['type'] === 'integer' && branchKeys.minimum !== undefined) out.minimum = branchKeys.minimum;
    }
  }
  return { ...out, anyOf: [{ type: 'integer' }, { type: 'string' }], 'x-kubernetes-int-or-string': true };
}

function assertKnownKeywords(node: JsonNode, path: string): void {
  for (const key of Object.keys(node)) {
    if (!HANDLED_KEYS.has(key) && !DROPPED_KEYS.has(key)) throw new StructuralSchemaError(path, `unsupported keyword ${key}`);
  }
}

/**
 * The typed `additionalProperties` of a map node, if any. `false` is zod's strictness, pruning does that job;
 * `{}` (any value) only fits a preserve-unknown node.
 */
function additionalPropertiesOf(node: JsonNode, path: string): JsonSchemaProps | undefined {
  const additional = node['additionalProperties'];
  if (isNode(additional) && !isEmptyNode(additional)) {
    if (isNode(node['properties'])) throw new StructuralSchemaError(path, 'properties and additionalProperties exclude each other');
    return convertNode(additional, `${path}.*`);
  }
  if (isEmptyNode(additional) && node['x-kubernetes-preserve-unknown-fields'] !== true) {
    throw new StructuralSchemaError(path, 'a map of untyped values needs x-kubernetes-preserve-unknown-fields');
  }
  return undefined;
}

function convertNode(node: unknown, path: string): JsonSchemaProps {
  if (!isNode(node)) throw new StructuralSchemaError(path, 'expected a schema object');
  assertKnownKeywords(node, path);
  if (node['x-kubernetes-int-or-string'] === true) return intOrStringNode(node, path);
  if (node['anyOf'] !== undefined) throw new StructuralSchemaError(path, 'anyOf is only allowed for int-or-string');
  const preserveUnknown = node['x-kubernetes-preserve-unknown-fields'] === true;
  const type = node['type'] ?? (preserveUnknown ? 'object' : undefined);
  if (!isJsonType(type)) throw new StructuralSchemaError(path, `every node needs a type, got ${JSON.stringify(type)}`);

  const out: JsonSchemaProps = { type, ...scalarKeys(node, path) };
  if (isNode(node['properties'])) {
    out.properties = Object.fromEntries(
      Object.entries(node['properties']).map(([name, child]) => [name, convertNode(child, `${path}.${name}`)]),
    );
  }
  if (node['required'] !== undefined) out.required = stringArray(node['required'], path, 'required');
  if (node['items'] !== undefined) out.items = convertNode(node['items'], `${path}[]`);
  const additionalProperties = additionalPropertiesOf(node, path);
  if (additionalProperties !== undefined) out.additionalProperties = additionalProperties;
  return out;
}

/** The structural OpenAPI schema of a zod schema, as the apiserver reads it (input side: defaults not yet applied). */
export function structuralSchema(schema: z.ZodType, path: string): JsonSchemaProps {
  const json = z.toJSONSchema(schema, { io: 'input', target: 'openapi-3.0', unrepresentable: 'throw', reused: 'inline' });
  return convertNode(json, path);
}
