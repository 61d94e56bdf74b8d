// The ZooKeeper container: image, start.sh as command, env the scripts read, probes, resources, mounts.
import type { V1Container, V1EnvVar, V1ResourceRequirements } from '@kubernetes/client-node';
import { fourLetterWordEndpoint, hasPlainClientPort, type ResourceList, SUPERUSER_SECRET_KEYS, usesTls, ZOOKEEPER_PORTS, type ZookeeperWorkload } from '@zk-oam/apis';
import { SASL_DIR_ENV, SASL_MOUNT_PATH, usesSasl } from '../sasl/jaas-secret.js';
import { FOUR_LETTER_WORD_ENV } from '../startup/four-letter-word-env.js';
import { clientContainerPorts, KEY_STORE_MOUNT_PATH, TLS_MOUNT_PATH } from '../tls/member-config.js';
import { CLIENT_CA_DIR_ENV, CLIENT_CA_MOUNT_PATH, usesX509 } from '../tls/x509/client-ca-config.js';
import { jvmFlags } from './heap.js';
import { workloadNames } from './identity.js';
import { CONFIG_FILES, CONFIG_MOUNT_PATH, DATA_MOUNT_PATH, memberDomain } from './layout.js';

export const CONTAINER_NAME = 'zookeeper';
export const VOLUMES = { config: 'config', data: 'data', tls: 'tls', keyStore: 'key-store', sasl: 'sasl', clientCa: 'client-ca' } as const;

/** `repository:tag`, or `repository@digest` when pinned. */
export function imageReference(image: ZookeeperWorkload['spec']['image']): string {
  return image.digest === undefined ? `${image.repository}:${image.tag}` : `${image.repository}@${image.digest}`;
}

function fieldEnv(name: string, fieldPath: string): V1EnvVar {
  return { name, valueFrom: { fieldRef: { fieldPath } } };
}

function env(workload: ZookeeperWorkload): V1EnvVar[] {
  const { spec } = workload;
  return [
    fieldEnv('POD_NAME', 'metadata.name'),
    fieldEnv('POD_NAMESPACE', 'metadata.namespace'),
    fieldEnv('POD_IP', 'status.podIP'),
    { name: 'ZK_DOMAIN', value: memberDomain(workload) },
    { name: 'ZK_CONFIG_DIR', value: CONFIG_MOUNT_PATH },
    { name: 'ZK_DATA_DIR', value: DATA_MOUNT_PATH },
    { name: 'ZK_JVM_FLAGS', value: jvmFlags(spec).join('\n') },
    {
      name: 'ZK_SUPER_DIGEST',
      valueFrom: { secretKeyRef: { name: workloadNames(workload).superuserSecret, key: SUPERUSER_SECRET_KEYS.digest } },
    },
    ...tlsEnv(workload),
    ...(usesSasl(workload.spec) ? [{ name: SASL_DIR_ENV, value: SASL_MOUNT_PATH }] : []),
    ...(usesX509(workload.spec) ? [{ name: CLIENT_CA_DIR_ENV, value: CLIENT_CA_MOUNT_PATH }] : []),
  ];
}

/**
 * Where the scripts ask four-letter words, and the member's plain client port (empty when TLS only). Set only when
 * spec.tls uses TLS: without them the scripts use the plain port 2181, and a workload without TLS keeps its pod template.
 */
function tlsEnv(workload: ZookeeperWorkload): V1EnvVar[] {
  const { tls } = workload.spec;
  if (!usesTls(tls)) return [];
  const endpoint = fourLetterWordEndpoint(tls);
  return [
    { name: FOUR_LETTER_WORD_ENV.port, value: String(endpoint.port) },
    { name: FOUR_LETTER_WORD_ENV.tls, value: String(endpoint.secure) },
    { name: FOUR_LETTER_WORD_ENV.plainClientPort, value: hasPlainClientPort(tls) ? String(ZOOKEEPER_PORTS.client) : '' },
    { name: FOUR_LETTER_WORD_ENV.tlsDir, value: TLS_MOUNT_PATH },
    { name: FOUR_LETTER_WORD_ENV.keyStoreDir, value: KEY_STORE_MOUNT_PATH },
  ];
}

function quantities(list: ResourceList | undefined): Record<string, string> | undefined {
  if (list === undefined) {
    return undefined;
  }
  const entries = Object.entries(list).filter((entry): entry is [string, string | number] => entry[1] !== undefined);
  return entries.length === 0 ? undefined : Object.fromEntries(entries.map(([name, value]) => [name, String(value)]));
}

function resources(workload: ZookeeperWorkload): V1ResourceRequirements | undefined {
  const requests = quantities(workload.spec.resources?.requests);
  const limits = quantities(workload.spec.resources?.limits);
  if (requests === undefined && limits === undefined) {
    return undefined;
  }
  return { ...(requests === undefined ? {} : { requests }), ...(limits === undefined ? {} : { limits }) };
}

function script(file: string): string[] {
  return ['bash', `${CONFIG_MOUNT_PATH}/${file}`];
}

export function buildContainer(workload: ZookeeperWorkload): V1Container {
  const { image, metrics } = workload.spec;
  const containerResources = resources(workload);
  return {
    name: CONTAINER_NAME,
    image: imageReference(image),
    imagePullPolicy: image.pullPolicy,
    command: script(CONFIG_FILES.start),
    env: env(workload),
    ports: [
      ...clientContainerPorts(workload.spec.tls),
      { name: 'quorum', containerPort: ZOOKEEPER_PORTS.quorum },
      { name: 'election', containerPort: ZOOKEEPER_PORTS.election },
      ...(metrics.enabled ? [{ name: 'metrics', containerPort: metrics.port }] : []),
    ],
    // Every 2 s: a restarted member is Ready within 2 s of joining the quorum, so each step of a roll waits for the
    // member, not for the probe (the kubelet probes once at start, when the JVM is not up yet, then each period).
    // Five misses (10 s) before a member leaves the Services, so a short pause does not block a roll.
    readinessProbe: { exec: { command: script(CONFIG_FILES.ready) }, periodSeconds: 2, timeoutSeconds: 5, failureThreshold: 5 },
    // Conservative: a member still choosing its configuration, or loading a large snapshot, must not be killed.
    livenessProbe: {
      exec: { command: script(CONFIG_FILES.alive) },
      initialDelaySeconds: 60,
      periodSeconds: 20,
      timeoutSeconds: 5,
      failureThreshold: 6,
    },
    ...(containerResources === undefined ? {} : { resources: containerResources }),
    volumeMounts: [
      { name: VOLUMES.config, mountPath: CONFIG_MOUNT_PATH, readOnly: true },
      { name: VOLUMES.data, mountPath: DATA_MOUNT_PATH },
      ...(usesTls(workload.spec.tls)
        ? [
            { name: VOLUMES.tls, mountPath: TLS_MOUNT_PATH, readOnly: true },
            { name: VOLUMES.keyStore, mountPath: KEY_STORE_MOUNT_PATH },
          ]
        : []),
      ...(usesSasl(workload.spec) ? [{ name: VOLUMES.sasl, mountPath: SASL_MOUNT_PATH, readOnly: true }] : []),
      ...(usesX509(workload.spec) ? [{ name: VOLUMES.clientCa, mountPath: CLIENT_CA_MOUNT_PATH, readOnly: true }] : []),
    ],
  };
}
