// The reflectors of one process, by what they list and watch: informers of several controllers that ask for the same
// kind, namespace and selectors share one reflector, so the server sends each event once and the process decodes it
// once, however many controllers cache it. Each informer still parses, transforms and caches on its own.
//
// A shared reflector asks as the first informer attached to it: where controllers act as different ServiceAccounts,
// one of them reads for all the sharers, each of which may read the kind itself (docs/operations.md says what that
// costs). A reflector of metadata alone turns to whole objects once one sharer needs them.
import { resourceName } from '../kube/resource.js';
import { Reflector, type ReflectorOptions } from './reflector.js';

function poolKey(options: ReflectorOptions): string {
  const { resource, namespace = '', labelSelector = '', fieldSelector = '' } = options;
  return JSON.stringify([resource.group, resource.version, resourceName(resource), namespace, labelSelector, fieldSelector]);
}

export class ReflectorPool {
  private readonly reflectors = new Map<string, Reflector>();

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
