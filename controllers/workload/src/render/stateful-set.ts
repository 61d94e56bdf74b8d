// StatefulSet `<name>`: the members, their volumes and placement; Parallel pods so a bootstrapping quorum can form.
import type { V1ConfigMap, V1PersistentVolumeClaim, V1StatefulSet } from '@kubernetes/client-node';
import type { ZookeeperWorkload } from '@zk-oam/apis';
import { configHash, CONFIG_HASH_ANNOTATION } from './config-hash.js';
import { buildContainer, VOLUMES } from './container.js';
import { childMetadata, selectorLabels, workloadLabels, workloadNames } from './identity.js';
import type { UpdateStrategy } from './input.js';
import { buildPlacement } from './placement.js';
import { buildPodSecurityContext } from './pod-security.js';

/** Long enough for the JVM to close its sessions and quorum connections after SIGTERM. */
export const TERMINATION_GRACE_PERIOD_SECONDS = 30;

export interface StatefulSetInput {
  workload: ZookeeperWorkload;
  replicas: number;
  updateStrategy: UpdateStrategy;
  /** The rendered ConfigMap: its hash goes on the pod template. */
  configMap: V1ConfigMap;
}

function dataClaimTemplate(workload: ZookeeperWorkload): V1PersistentVolumeClaim {
  const { size, storageClassName } = workload.spec.storage;
  return {
    metadata: { name: VOLUMES.data, labels: selectorLabels(workload) },
    spec: {
      accessModes: ['ReadWriteOnce'],
      ...(storageClassName === undefined ? {} : { storageClassName }),
      resources: { requests: { storage: String(size) } },
    },
  };
}

export function buildStatefulSet({ workload, replicas, updateStrategy, configMap }: StatefulSetInput): V1StatefulSet {
  const names = workloadNames(workload);
  const { pullSecrets } = workload.spec.image;
  return {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: childMetadata(workload, names.statefulSet),
    spec: {
      replicas,
      serviceName: names.headlessService,
      // OrderedReady would deadlock a bootstrapping quorum: member 0 is never Ready without a quorum.
      podManagementPolicy: 'Parallel',
      updateStrategy: { type: updateStrategy },
      selector: { matchLabels: selectorLabels(workload) },
      template: {
        metadata: {
          labels: workloadLabels(workload),
          annotations: { [CONFIG_HASH_ANNOTATION]: configHash(configMap) },
        },
        spec: {
          containers: [buildContainer(workload)],
          volumes: [{ name: VOLUMES.config, configMap: { name: names.configMap } }],
          securityContext: buildPodSecurityContext(workload.spec),
          terminationGracePeriodSeconds: TERMINATION_GRACE_PERIOD_SECONDS,
          ...(pullSecrets === undefined ? {} : { imagePullSecrets: pullSecrets }),
          ...buildPlacement(workload),
        },
      },
      volumeClaimTemplates: [dataClaimTemplate(workload)],
      // Scaling down keeps volumes: what happens to a removed member's volume is the scale trait's decision.
      persistentVolumeClaimRetentionPolicy: { whenDeleted: workload.spec.storage.reclaimPolicy, whenScaled: 'Retain' },
    },
  };
}
