// The API resources and names the scale controller reads and writes, and the markers it coordinates through.
import { ZOOKEEPER_SCALE, ZOOKEEPER_WORKLOAD } from '@zk-oam/apis';
import { coreResources, namespacedResource, type ResourceType } from '@zk-oam/runtime';

/** Server-side apply field manager (owner of the workload's spec.replicas while bound) and leader-election Lease. */
export const FIELD_MANAGER = 'zk-oam-scale';

/** On the workload: names the bound ZookeeperScale; the workload controller then follows spec.replicas. */
export const BINDING_ANNOTATION = 'scale.zookeeper.zkoam.dev/trait';

/** On the trait: unbinding (annotation removed, lock released) happens before the trait disappears. */
export const UNBIND_FINALIZER = 'scale.zookeeper.zkoam.dev/unbind';

/** The rolling controller takes the same per-workload lock as `rolling/<trait>`. */
export function lockHolderOf(traitName: string): string {
  return `scale/${traitName}`;
}

export const scaleResource = namespacedResource(ZOOKEEPER_SCALE);
export const workloadResource = namespacedResource(ZOOKEEPER_WORKLOAD);

export const watchedResources = {
  statefulSet: coreResources.statefulSet,
  pod: coreResources.pod,
  persistentVolumeClaim: coreResources.persistentVolumeClaim,
} as const satisfies Record<string, ResourceType>;

/** Labels every member pod and data volume of a workload carries (the StatefulSet's selector and claim template). */
export const INSTANCE_LABEL = 'app.kubernetes.io/instance';
export const MEMBER_SELECTOR = 'app.kubernetes.io/name=zookeeper,app.kubernetes.io/component=server';

/** The ordinal of a StatefulSet pod (`<name>-<ordinal>`) or of its data volume (`data-<name>-<ordinal>`). */
export function ordinalAfter(prefix: string, objectName: string): number | undefined {
  if (!objectName.startsWith(prefix)) return undefined;
  const digits = objectName.slice(prefix.length);
  return /^(0|[1-9][0-9]*)$/.test(digits) ? Number(digits) : undefined;
}

export const podPrefix = (statefulSet: string): string => `${statefulSet}-`;
export const volumePrefix = (statefulSet: string): string => `data-${statefulSet}-`;
