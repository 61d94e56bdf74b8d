// StatefulSet `<name>`: the members, their volumes, security context and placement; Parallel pods so a bootstrapping
// quorum can form.
import type { V1ConfigMap, V1PersistentVolumeClaim, V1PodSecurityContext, V1StatefulSet, V1Volume } from '@kubernetes/client-node';
import { SASL_REVISION_ANNOTATION, usesTls, type ZookeeperWorkload, type ZookeeperWorkloadSpec } from '@zk-oam/apis';
import { usesSasl } from '../sasl/jaas-secret.js';
import { tlsPodAnnotations } from '../tls/member-config.js';
import { CLIENT_CA_ANNOTATION, clientCaVolume } from '../tls/x509/client-ca-config.js';
import { configHash, CONFIG_HASH_ANNOTATION } from './config-hash.js';
import { buildContainer, VOLUMES } from './container.js';
import { childMetadata, selectorLabels, workloadLabels, workloadNames } from './identity.js';
import type { UpdateStrategy } from './input.js';
import { buildPlacement } from './placement.js';

/** Long enough for the JVM to close its sessions and quorum connections after SIGTERM. */
export const TERMINATION_GRACE_PERIOD_SECONDS = 30;

/** The pod security context without the user's: the official image's zookeeper user (uid/gid 1000), non-root, RuntimeDefault. */
export const DEFAULT_POD_SECURITY_CONTEXT: V1PodSecurityContext = {
  runAsUser: 1000,
  runAsGroup: 1000,
  runAsNonRoot: true,
  // The data volume is writable by the server's group.
  fsGroup: 1000,
  seccompProfile: { type: 'RuntimeDefault' },
};

function buildPodSecurityContext(spec: Pick<ZookeeperWorkloadSpec, 'podSecurityContext'>): V1PodSecurityContext {
  return spec.podSecurityContext ?? DEFAULT_POD_SECURITY_CONTEXT;
}

export interface StatefulSetInput {
  workload: ZookeeperWorkload;
  replicas: number;
  updateStrategy: UpdateStrategy;
  /** The rendered ConfigMap: its hash goes on the pod template. */
  configMap: V1ConfigMap;
  /** The member certificate's fingerprint, when spec.tls uses TLS: on the pod template too. */
  certificateFingerprint: string | undefined;
  /** The hash of the trusted CAs while the member Secret trusts more than one (a CA rotation): on the pod template too. */
  trustBundleHash: string | undefined;
  /** The JAAS Secret's resourceVersion, when spec.authentication uses SASL: on the pod template too. */
  saslRevision: string | undefined;
  /** The SHA-256 of the client CA's ca.crt, when spec.authentication uses x509: on the pod template too. */
  clientCaDigest: string | undefined;
}

function podAnnotations({ configMap, certificateFingerprint, trustBundleHash, saslRevision, clientCaDigest }: StatefulSetInput): Record<string, string> {
  return {
    [CONFIG_HASH_ANNOTATION]: configHash(configMap),
    ...tlsPodAnnotations(certificateFingerprint, trustBundleHash),
    ...(saslRevision === undefined ? {} : { [SASL_REVISION_ANNOTATION]: saslRevision }),
    ...(clientCaDigest === undefined ? {} : { [CLIENT_CA_ANNOTATION]: clientCaDigest }),
  };
}

/**
 * The config volume; when the workload uses TLS, the member TLS Secret's (owner read-only: it holds a key) and the
 * memory-backed directory start.sh writes ZooKeeper's key store into; with SASL users, the JAAS Secret's (owner
 * read-only: it holds passwords); with x509, the user's client CA Secret's ca.crt.
 */
function podVolumes(workload: ZookeeperWorkload): V1Volume[] {
  const names = workloadNames(workload);
  return [
    { name: VOLUMES.config, configMap: { name: names.configMap } },
    ...(usesTls(workload.spec.tls)
      ? [
          { name: VOLUMES.tls, secret: { secretName: names.tlsSecret, defaultMode: 0o400 } },
          { name: VOLUMES.keyStore, emptyDir: { medium: 'Memory', sizeLimit: '1Mi' } },
        ]
      : []),
    ...(usesSasl(workload.spec) ? [{ name: VOLUMES.sasl, secret: { secretName: names.saslSecret, defaultMode: 0o400 } }] : []),
    ...clientCaVolume(workload.spec, VOLUMES.clientCa),
  ];
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

export function buildStatefulSet(input: StatefulSetInput): V1StatefulSet {
  const { workload, replicas, updateStrategy } = input;
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
          annotations: podAnnotations(input),
        },
        spec: {
          containers: [buildContainer(workload)],
          volumes: podVolumes(workload),
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
