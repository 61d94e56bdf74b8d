// Names a resource type (group, version, plural) and builds its REST paths.
import type { ObjectKey } from './object.js';

export interface ResourceType {
  readonly group: string; // '' for the core group
  readonly version: string;
  readonly plural: string;
  readonly kind: string;
  readonly namespaced: boolean;
}

export function apiVersionOf(resource: ResourceType): string {
  return resource.group === '' ? resource.version : `${resource.group}/${resource.version}`;
}

/** `plural.group`, the name used in logs, metrics and RBAC. */
export function resourceName(resource: ResourceType): string {
  return resource.group === '' ? resource.plural : `${resource.plural}.${resource.group}`;
}

function groupVersionPath(resource: ResourceType): string {
  return resource.group === '' ? `/api/${resource.version}` : `/apis/${resource.group}/${resource.version}`;
}

/** The collection path; all namespaces when `namespace` is undefined or the resource is cluster-scoped. */
export function collectionPath(resource: ResourceType, namespace?: string): string {
  const scope = resource.namespaced && namespace ? `/namespaces/${encodeURIComponent(namespace)}` : '';
  return `${groupVersionPath(resource)}${scope}/${resource.plural}`;
}

export function objectPath(resource: ResourceType, key: ObjectKey, subresource?: string): string {
  const base = `${collectionPath(resource, key.namespace)}/${encodeURIComponent(key.name)}`;
  return subresource === undefined ? base : `${base}/${subresource}`;
}

/** A namespaced custom resource from its kind's names (as `@zk-oam/apis` kind infos carry them). */
export function namespacedResource(kind: Pick<ResourceType, 'group' | 'version' | 'plural' | 'kind'>): ResourceType {
  return { group: kind.group, version: kind.version, plural: kind.plural, kind: kind.kind, namespaced: true };
}

/** Resource types the kit itself uses, and a few every controller watches. */
export const coreResources = {
  configMap: { group: '', version: 'v1', plural: 'configmaps', kind: 'ConfigMap', namespaced: true },
  secret: { group: '', version: 'v1', plural: 'secrets', kind: 'Secret', namespaced: true },
  pod: { group: '', version: 'v1', plural: 'pods', kind: 'Pod', namespaced: true },
  service: { group: '', version: 'v1', plural: 'services', kind: 'Service', namespaced: true },
  persistentVolumeClaim: {
    group: '',
    version: 'v1',
    plural: 'persistentvolumeclaims',
    kind: 'PersistentVolumeClaim',
    namespaced: true,
  },
  statefulSet: { group: 'apps', version: 'v1', plural: 'statefulsets', kind: 'StatefulSet', namespaced: true },
  lease: { group: 'coordination.k8s.io', version: 'v1', plural: 'leases', kind: 'Lease', namespaced: true },
  event: { group: 'events.k8s.io', version: 'v1', plural: 'events', kind: 'Event', namespaced: true },
} as const satisfies Record<string, ResourceType>;
