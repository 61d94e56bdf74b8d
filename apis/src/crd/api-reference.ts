// docs/api-reference.md, written from the CRDs the zod schemas generate: every field a user can set or read, with its
// type, default, bounds and description, and the rules the apiserver enforces. Generated, so it cannot drift.
import { DNS_SUBDOMAIN_PATTERN } from '../common/object-meta.js';
import { QUANTITY_PATTERN } from '../common/quantity.js';
import type { CelRule } from '../common/structural.js';
import type { CustomResourceDefinition, JsonSchemaProps } from './types.js';

interface FieldRow {
  readonly path: string;
  readonly schema: JsonSchemaProps;
  readonly required: boolean;
}

interface FieldRule {
  readonly path: string;
  readonly rule: CelRule;
}

function typeOf(schema: JsonSchemaProps): string {
  if (schema['x-kubernetes-int-or-string'] === true) return 'integer or string';
  if (schema.type === 'array') return `array of ${schema.items === undefined ? 'any' : typeOf(schema.items)}`;
  if (schema.type === 'object' && schema.additionalProperties !== undefined) return `map of ${typeOf(schema.additionalProperties)}`;
  return schema.type ?? 'any';
}

function code(value: unknown): string {
  return `\`${JSON.stringify(value).replaceAll('|', '\\|')}\``;
}

/** Patterns a reader knows by name, written as that name. */
const NAMED_PATTERNS = new Map([
  [QUANTITY_PATTERN.source, 'a quantity such as 500m or 2Gi'],
  [DNS_SUBDOMAIN_PATTERN.source, 'a DNS subdomain name'],
]);

function bounds(schema: JsonSchemaProps): string[] {
  const facts: string[] = [];
  if (schema.enum !== undefined) facts.push(`one of ${schema.enum.map(code).join(', ')}`);
  if (schema.minimum !== undefined) facts.push(`min ${String(schema.minimum)}`);
  if (schema.maximum !== undefined) facts.push(`max ${String(schema.maximum)}`);
  if (schema.minLength !== undefined) facts.push(`length ≥ ${String(schema.minLength)}`);
  if (schema.maxLength !== undefined) facts.push(`length ≤ ${String(schema.maxLength)}`);
  if (schema.minItems !== undefined) facts.push(`items ≥ ${String(schema.minItems)}`);
  if (schema.maxItems !== undefined) facts.push(`items ≤ ${String(schema.maxItems)}`);
  if (schema.maxProperties !== undefined) facts.push(`entries ≤ ${String(schema.maxProperties)}`);
  if (schema.pattern !== undefined) facts.push(NAMED_PATTERNS.get(schema.pattern) ?? `pattern ${code(schema.pattern)}`);
  return facts;
}

function cell(text: string): string {
  return text.replaceAll('|', '\\|').replaceAll('\n', ' ');
}

function row(field: FieldRow): string {
  const { schema } = field;
  const description = [schema.description ?? '', ...bounds(schema).map((fact) => `(${fact})`)].filter((part) => part !== '').join(' ');
  return `| \`${field.path}\`${field.required ? ' *' : ''} | ${typeOf(schema)} | ${schema.default === undefined ? '' : code(schema.default)} | ${cell(description)} |`;
}

interface Collected {
  readonly rows: FieldRow[];
  readonly rules: FieldRule[];
}

/** Depth first, in the schema's own order: a field, then what it holds (list items as `[]`, map values as `*`). */
function walk(schema: JsonSchemaProps, path: string, required: boolean, into: Collected, listed = true): void {
  if (listed) into.rows.push({ path, schema, required });
  for (const rule of schema['x-kubernetes-validations'] ?? []) into.rules.push({ path, rule });
  const requiredChildren = new Set(schema.required ?? []);
  for (const [name, child] of Object.entries(schema.properties ?? {})) walk(child, `${path}.${name}`, requiredChildren.has(name), into);
  if (schema.items?.properties !== undefined) walk(schema.items, `${path}[]`, false, into, false);
  if (schema.additionalProperties?.properties !== undefined) walk(schema.additionalProperties, `${path}.*`, false, into, false);
}

function kindSection(crd: CustomResourceDefinition): string[] {
  const version = crd.spec.versions.find((candidate) => candidate.storage) ?? crd.spec.versions[0];
  if (version === undefined) return [];
  const { names, group } = crd.spec;
  const root = version.schema.openAPIV3Schema;
  const lines = [
    `## ${names.kind}`,
    '',
    `\`apiVersion: ${group}/${version.name}\`, \`kind: ${names.kind}\`; ${crd.spec.scope.toLowerCase()}; ` +
      `\`kubectl get ${[names.plural, ...(names.shortNames ?? [])].join(' | ')}\`` +
      (version.subresources?.scale === undefined ? '' : `; \`kubectl scale\` sets \`${version.subresources.scale.specReplicasPath}\``) +
      '.',
    '',
  ];
  const columns = version.additionalPrinterColumns ?? [];
  if (columns.length > 0) {
    lines.push('`kubectl get` shows ' + columns.map((column) => `${column.name}${column.priority === undefined ? '' : ' (-o wide)'}`).join(', ') + '.', '');
  }
  for (const part of ['spec', 'status']) {
    const schema = root.properties?.[part];
    if (schema === undefined) continue;
    const objectRules = part === 'spec' ? (root['x-kubernetes-validations'] ?? []) : [];
    const { rows, rules }: Collected = { rows: [], rules: objectRules.map((rule) => ({ path: '(object)', rule })) };
    walk(schema, part, false, { rows, rules }, false);
    lines.push(`### ${part}`, '', schema.description ?? '', '', '| field | type | default | description |', '| --- | --- | --- | --- |');
    lines.push(...rows.map(row), '');
    if (rules.length > 0) {
      lines.push(`Rules the apiserver enforces on the ${part}:`, '');
      lines.push(...rules.map(({ path, rule }) => `- \`${path}\`: ${rule.message}`), '');
    }
  }
  return lines;
}

/** The whole reference for the given CRDs, one section per kind. */
export function apiReference(crds: readonly CustomResourceDefinition[]): string {
  return [
    '<!-- Generated by `npm run docs` (apis/src/crd/api-reference.ts) from the zod schemas in apis/. Do not edit. -->',
    '',
    '# API reference',
    '',
    'Every field of the ZooKeeper kinds, as the CRDs in `deploy/crds/` define them. `*` marks a required field. Bounds',
    'and rules are enforced by the apiserver when an object is written; the controllers check the same schemas again',
    'when they read it.',
    '',
    ...crds.flatMap(kindSection),
  ].join('\n');
}
