// Annotations on zod schemas that the CRD generator turns into Kubernetes OpenAPI extensions.
import type { z } from 'zod';

/** A CEL rule as the apiserver takes it in `x-kubernetes-validations`. */
export interface CelRule {
  rule: string;
  message: string;
  /** Where the apiserver reports a failure, relative to the node carrying the rule (e.g. `.requests.memory`). */
  fieldPath?: string;
  reason?: 'FieldValueInvalid' | 'FieldValueForbidden' | 'FieldValueRequired' | 'FieldValueDuplicate';
}

/** Attaches CEL rules to a schema; zod ignores them, the generated CRD enforces them. */
export function withCel<T extends z.ZodType>(schema: T, ...rules: CelRule[]): T {
  return schema.meta({ 'x-kubernetes-validations': rules });
}

/** Marks a number-or-string union as `x-kubernetes-int-or-string`. */
export function intOrString<T extends z.ZodType>(schema: T): T {
  return schema.meta({ 'x-kubernetes-int-or-string': true });
}

/** Marks a list as a map keyed by the given fields (server-side apply merges its items by key). */
export function listMap<T extends z.ZodType>(schema: T, ...keys: string[]): T {
  return schema.meta({ 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': keys });
}

/** Marks a list whose items are atomic values (merged as a set). */
export function listSet<T extends z.ZodType>(schema: T): T {
  return schema.meta({ 'x-kubernetes-list-type': 'set' });
}

/** An embedded Kubernetes object (apiVersion, kind, metadata) kept whole. */
export function embeddedResource<T extends z.ZodType>(schema: T): T {
  return schema.meta({ 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true });
}

/** An object whose fields the apiserver keeps as given (for pass-through Kubernetes types). */
export function preserveUnknownFields<T extends z.ZodType>(schema: T): T {
  return schema.meta({ 'x-kubernetes-preserve-unknown-fields': true });
}

/** Bounds the number of keys of a map, which also bounds the cost of CEL rules over it. */
export function maxProperties<T extends z.ZodType>(schema: T, max: number): T {
  return schema.meta({ maxProperties: max });
}
