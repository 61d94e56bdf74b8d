// How an informer turns a raw object of its kind into what it caches: its transform, then its schema. Informers of a
// process that share a reflector and parse alike share one parser (reflector-pool.ts); the reflector hands each
// event's object to all of them in turn, and the parser keeps its last answer, so the object is parsed once however
// many controllers cache it.
import type { z } from 'zod';
import type { KubeObject } from '../kube/object.js';
import { apiVersionOf, type ResourceType } from '../kube/resource.js';
import type { ObjectTransform } from './kept-fields.js';
import type { RawObject } from './reflector.js';

export class ObjectParser<T extends KubeObject> {
  private last: { readonly raw: RawObject; readonly parsed: z.ZodSafeParseResult<T> } | undefined;

  constructor(
    readonly resource: ResourceType,
    readonly schema: z.ZodType<T>,
    readonly transform: ObjectTransform | undefined,
  ) {}

  /** The object as cached, or why it does not parse; the same answer, not a new one, for the object parsed last. */
  parse(raw: RawObject): z.ZodSafeParseResult<T> {
    if (this.last?.raw === raw) return this.last.parsed;
    // List items carry no apiVersion and kind, and metadata-only objects those of PartialObjectMetadata.
    const parsed = this.schema.safeParse({
      ...(this.transform === undefined ? raw : this.transform(raw)),
      apiVersion: apiVersionOf(this.resource),
      kind: this.resource.kind,
    });
    this.last = { raw, parsed };
    return parsed;
  }
}
