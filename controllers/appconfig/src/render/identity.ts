// The names, labels and owner reference that tie rendered objects to their ApplicationConfiguration; pure.
import { OAM_APPLICATION_CONFIGURATION, OAM_LABELS, type ApplicationConfiguration } from '@zk-oam/apis';
import type { OwnerReference } from '@zk-oam/runtime';

export const RESOURCE_TYPE = { workload: 'WORKLOAD', trait: 'TRAIT' } as const;
export type ResourceTypeLabel = (typeof RESOURCE_TYPE)[keyof typeof RESOURCE_TYPE];

export class MissingUidError extends Error {
  override readonly name = 'MissingUidError';
  constructor(subject: string) {
    super(`${subject} has no metadata.uid: it was not read from the API`);
  }
}

/** The ApplicationConfiguration as controller owner: garbage collection removes what it rendered with it. */
export function controllerOwner(appConfig: ApplicationConfiguration): OwnerReference {
  const { name, uid } = appConfig.metadata;
  if (uid === undefined) throw new MissingUidError(`ApplicationConfiguration ${name}`);
  return { apiVersion: OAM_APPLICATION_CONFIGURATION.apiVersion, kind: OAM_APPLICATION_CONFIGURATION.kind, name, uid, controller: true, blockOwnerDeletion: true };
}

export function oamLabels(appConfig: string, component: string, revision: string, resourceType: ResourceTypeLabel): Record<string, string> {
  return {
    [OAM_LABELS.appName]: appConfig,
    [OAM_LABELS.component]: component,
    [OAM_LABELS.revision]: revision,
    [OAM_LABELS.resourceType]: resourceType,
  };
}

/**
 * Annotations that describe the ApplicationConfiguration object itself: copied to a workload they would be wrong
 * there (kubectl's last-applied configuration would make `kubectl apply` of the workload compute its diff against the
 * ApplicationConfiguration). oam-kubernetes-runtime copies every annotation; this is where we differ.
 */
const OWN_ANNOTATIONS: ReadonlySet<string> = new Set(['kubectl.kubernetes.io/last-applied-configuration']);

export interface PassedMetadata {
  readonly labels: Readonly<Record<string, string>>;
  readonly annotations: Readonly<Record<string, string>>;
}

/** The ApplicationConfiguration's labels and annotations that its workloads and traits carry too. */
export function passedMetadata(appConfig: ApplicationConfiguration): PassedMetadata {
  const annotations = Object.entries(appConfig.metadata.annotations ?? {}).filter(([key]) => !OWN_ANNOTATIONS.has(key));
  return { labels: { ...appConfig.metadata.labels }, annotations: Object.fromEntries(annotations) };
}

/** A trait without metadata.name is named after its component and kind, stable across spec changes. */
export function defaultTraitName(componentName: string, kind: string): string {
  return `${componentName}-${kind.toLowerCase()}`;
}
