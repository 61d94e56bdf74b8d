// The zod -> OpenAPI conversion refuses what the apiserver would refuse, and keeps the Kubernetes extensions.
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { intOrString, listMap, preserveUnknownFields, withCel } from '../common/structural.js';
import { StructuralSchemaError, structuralSchema } from './structural-schema.js';

describe('structuralSchema', () => {
  it('types every node, keeps bounds, defaults and enums, and drops the safe-integer range zod adds', () => {
    const schema = z.object({
      size: z.int().min(1).default(3),
      count: z.int(),
      mode: z.enum(['a', 'b']).default('a'),
      names: z.array(z.string().max(10)).max(4).optional(),
    });
    expect(structuralSchema(schema, 'x')).toEqual({
      type: 'object',
      properties: {
        size: { type: 'integer', minimum: 1, default: 3 },
        count: { type: 'integer' },
        mode: { type: 'string', enum: ['a', 'b'], default: 'a' },
        names: { type: 'array', maxItems: 4, items: { type: 'string', maxLength: 10 } },
      },
      required: ['count'],
    });
  });

  it('writes int-or-string as the one allowed anyOf, with the string pattern lifted up', () => {
    const schema = intOrString(z.union([z.int().min(0), z.string().regex(/^[0-9]+m$/)]));
    expect(structuralSchema(schema, 'x')).toEqual({
      'x-kubernetes-int-or-string': true,
      anyOf: [{ type: 'integer' }, { type: 'string' }],
      pattern: '^[0-9]+m$',
      minimum: 0,
    });
  });

  it('carries CEL rules, list-map keys and preserve-unknown-fields through', () => {
    const schema = z.object({
      items: listMap(z.array(z.object({ key: z.string(), value: z.string() })), 'key'),
      free: preserveUnknownFields(z.record(z.string(), z.unknown())),
      ref: withCel(z.object({ name: z.string() }), { rule: 'self == oldSelf', message: 'immutable' }),
    });
    const converted = structuralSchema(schema, 'x');
    expect(converted.properties?.['items']).toMatchObject({ 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['key'] });
    expect(converted.properties?.['free']).toEqual({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true });
    expect(converted.properties?.['ref']?.['x-kubernetes-validations']).toEqual([{ rule: 'self == oldSelf', message: 'immutable' }]);
  });

  it.each([
    ['a union that is not int-or-string', z.object({ value: z.union([z.string(), z.boolean()]) }), 'x.value'],
    ['a map of untyped values', z.object({ bag: z.record(z.string(), z.unknown()) }), 'x.bag'],
    ['an untyped field', z.object({ anything: z.unknown() }), 'x.anything'],
  ])('refuses %s, naming where', (_case, schema, path) => {
    expect(() => structuralSchema(schema, 'x')).toThrow(StructuralSchemaError);
    expect(() => structuralSchema(schema, 'x')).toThrow(`schema at ${path} is not structural`);
  });
});
