// Maps a child object to the keys of its owners of a given kind (controller-runtime's EnqueueRequestForOwner).
import type { KubeObject, ObjectKey, OwnerReference } from '../kube/object.js';

export interface OwnerKind {
  /** API group of the owner ('' for core); versions are ignored, as in controller-runtime. */
  readonly group: string;
  readonly kind: string;
}

export interface OwnerMappingOptions {
  /** Only the owner reference with `controller: true` counts. Default true. */
  readonly controllerOnly?: boolean;
}

function groupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
}

function refersTo(reference: OwnerReference, owner: OwnerKind): boolean {
  return reference.kind === owner.kind && groupOf(reference.apiVersion) === owner.group;
}

/** Owner references are namespace-local, so the owner's namespace is the child's. */
export function ownerKeysOf(child: KubeObject, owner: OwnerKind, options: OwnerMappingOptions = {}): ObjectKey[] {
  const controllerOnly = options.controllerOnly ?? true;
  return (child.metadata.ownerReferences ?? [])
    .filter((reference) => refersTo(reference, owner) && (!controllerOnly || reference.controller === true))
    .map((reference) => ({ namespace: child.metadata.namespace ?? '', name: reference.name }));
}
