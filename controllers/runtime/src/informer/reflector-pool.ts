// The reflectors of one process, by what they list and watch: informers of several controllers that ask for the same
// kind, namespace and selectors share one reflector, so the server sends each event once and the process decodes it
// once, however many controllers cache it. Informers that also transform and parse alike share one parser, so they
// cache one object between them; each keeps its own cache and events.
//
// A shared reflector asks as the first informer attached to it: where controllers act as different ServiceAccounts,
// one of them reads for all the sharers, each of which may read the kind itself (docs/operations.md says what that
// costs). A reflector of metadata alone turns to whole objects once one sharer needs them.
import type { z } from 'zod';
import type { KubeObject } from '../kube/object.js';
import { resourceName, type ResourceType } from '../kube/resource.js';
import type { ObjectTransform } from './kept-fields.js';
import { ObjectParser } from './object-parser.js';
import { Reflector, type ReflectorOptions } from './reflector.js';

function resourceKey(resource: ResourceType): string {
  return JSON.stringify([resource.group, resource.version, resourceName(resource)]);
}

function poolKey(options: ReflectorOptions): string {
  const { resource, namespace = '', labelSelector = '', fieldSelector = '' } = options;
  return JSON.stringify([resourceKey(resource), namespace, labelSelector, fieldSelector]);
}

export class ReflectorPool {
  private readonly reflectors = new Map<string, Reflector>();
  /** By kind; a schema and a transform are the same when they are the same object. */
  private readonly parsers = new Map<string, ObjectParser<KubeObject>[]>();

  /** The parser of this kind, schema and transform: the one already made, or a new one. */
  parserFor<T extends KubeObject>(resource: ResourceType, schema: z.ZodType<T>, transform: ObjectTransform | undefined): ObjectParser<T> {
    const key = resourceKey(resource);
    const parsers = this.parsers.get(key) ?? [];
    const known = parsers.find((parser) => parser.schema === schema && parser.transform === transform);
    // The same schema object parses to the same type.
    if (known !== undefined) return known as ObjectParser<T>;
    const parser = new ObjectParser(resource, schema, transform);
    this.parsers.set(key, [...parsers, parser]);
    return parser;
  }

  /** The reflector of this list and watch: the one already made, or a new one from `options`. */
  reflectorFor(options: ReflectorOptions): Reflector {
    const key = poolKey(options);
    const shared = this.reflectors.get(key);
    if (shared === undefined) {
      const reflector = new Reflector(options);
      this.reflectors.set(key, reflector);
      return reflector;
    }
    if (options.metadataOnly !== true) shared.wantWholeObjects();
    return shared;
  }
}
