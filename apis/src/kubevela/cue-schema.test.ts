import { describe, expect, it } from 'vitest';
import { cueType, parameterBlock, usesStrings } from './cue-schema.js';

describe('cueType', () => {
  it('keeps numeric bounds, exclusive ones included', () => {
    expect(cueType({ type: 'integer', minimum: 1, maximum: 31 })).toBe('int & >=1 & <=31');
    expect(cueType({ type: 'number', minimum: 0, exclusiveMinimum: true })).toBe('number & >0');
  });

  it('keeps string patterns and lengths, counted in runes as the API server counts characters', () => {
    expect(cueType({ type: 'string', pattern: '^[a-z]+$', minLength: 1, maxLength: 63 })).toBe('string & =~"^[a-z]+$" & strings.MinRunes(1) & strings.MaxRunes(63)');
  });

  it('writes an enum as a disjunction of its literals', () => {
    expect(cueType({ type: 'string', enum: ['Retain', 'Delete'] })).toBe('"Retain" | "Delete"');
  });

  it('closes objects, marks optional fields and quotes labels that are not identifiers', () => {
    const schema = { type: 'object' as const, required: ['a'], properties: { a: { type: 'string' as const }, 'b.c': { type: 'boolean' as const } } };
    expect(cueType(schema)).toBe('close({\n\ta: string\n\t"b.c"?: bool\n})');
  });

  it('writes maps and lists of their element type, and leaves preserved fields open', () => {
    expect(cueType({ type: 'object', additionalProperties: { type: 'string' } })).toBe('{[string]: string}');
    expect(cueType({ type: 'array', items: { type: 'integer' } })).toBe('[...int]');
    expect(cueType({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true })).toBe('{...}');
    expect(cueType({ 'x-kubernetes-int-or-string': true })).toBe('int | string');
  });
});

describe('parameterBlock', () => {
  it('gives scalar defaults as CUE defaults, carries descriptions as comments and leaves out omitted fields', () => {
    const schema = {
      type: 'object' as const,
      properties: {
        replicas: { type: 'integer' as const, minimum: 1, default: 3, description: 'How many.' },
        workloadRef: { type: 'object' as const, properties: {} },
      },
    };
    expect(parameterBlock(schema, new Set(['workloadRef']))).toBe('parameter: close({\n\t// How many.\n\treplicas: *3 | int & >=1\n})');
  });
});

describe('usesStrings', () => {
  it('tells when the template must import the strings package', () => {
    expect(usesStrings('a: strings.MaxRunes(3)')).toBe(true);
    expect(usesStrings('a: string')).toBe(false);
  });
});
