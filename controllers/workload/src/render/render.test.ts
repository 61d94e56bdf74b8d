// Whole-object rendering: a minimal and a fully specified workload in, every rendered object out, compared in full.
import type { V1EnvVar } from '@kubernetes/client-node';
import {
  DATA_VOLUME,
  derivedNames,
  memberDomain,
  memberHost,
  memberSelectorLabels,
  myidOfOrdinal,
  SUPERUSER_SECRET_KEYS,
  workloadLabels,
  ZOOKEEPER_WORKLOAD,
  type ZookeeperWorkload,
} from '@zk-oam/apis';
import { describe, expect, it } from 'vitest';
import { ALIVE_SCRIPT, READY_SCRIPT } from '../startup/probe-scripts.js';
import { START_SCRIPT } from '../startup/start-script.js';
import { configHash } from './config-hash.js';
import { renderWorkload } from './render.js';
import type { RenderInput } from './input.js';
import { EXPECTED_TLS_ZOO_CFG, fullWorkload, minimalWorkload, withSpec } from './test-workloads.js';

// The workload zk in namespace prod (test-workloads.ts): its names and labels are the contract's.
const NAMES = derivedNames('zk');
const selector = memberSelectorLabels('zk');
const labels = workloadLabels('zk');
const owner = {
  apiVersion: ZOOKEEPER_WORKLOAD.apiVersion,
  kind: ZOOKEEPER_WORKLOAD.kind,
  name: 'zk',
  uid: '6b1f0c1e-0000-4000-8000-000000000001',
  controller: true,
  blockOwnerDeletion: true,
};
const meta = (name: string): object => ({ name, namespace: 'prod', labels, ownerReferences: [owner] });
const member = (ordinal: number): string => {
  const host = memberHost('zk', 'prod', ordinal);
  return `server.${myidOfOrdinal(ordinal)}=${host}:2888:3888:participant;${host}:2181`;
};
const superDigest = { name: 'ZK_SUPER_DIGEST', valueFrom: { secretKeyRef: { name: NAMES.defaultSuperuserSecret, key: SUPERUSER_SECRET_KEYS.digest } } };
const fieldEnv = (name: string, fieldPath: string): object => ({ name, valueFrom: { fieldRef: { fieldPath } } });
const ownAntiAffinityTerm = { topologyKey: 'kubernetes.io/hostname', labelSelector: { matchLabels: selector } };

const STATIC_ZOO_CFG = [
  'dataDir=@DATA_DIR@/data',
  'dynamicConfigFile=@DATA_DIR@/conf/zoo.cfg.dynamic.chosen',
  'reconfigEnabled=true',
  'standaloneEnabled=false',
  'quorumListenOnAllIPs=false',
  '4lw.commands.whitelist=srvr,mntr,conf,ruok',
  'admin.enableServer=false',
];

describe('renderWorkload for a minimal workload (defaults everywhere)', () => {
  const inputs: RenderInput = {
    workload: minimalWorkload(),
    replicas: 3,
    initialMembers: 3,
    quorumTls: 'Plain',
    updateStrategy: 'RollingUpdate',
    monitoringCrdsPresent: true,
    certificateFingerprint: undefined, trustBundleHash: undefined,
    saslRevision: undefined,
    clientCaDigest: undefined,
    clientsAdmitted: true,
  };
  const rendered = renderWorkload(inputs);

  it('renders the ConfigMap with zoo.cfg, the initial membership and the scripts', () => {
    expect(rendered.configMap).toEqual({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: meta(NAMES.configMap),
      data: {
        'zoo.cfg': [
          'tickTime=2000',
          'initLimit=10',
          'syncLimit=5',
          'maxClientCnxns=60',
          'autopurge.snapRetainCount=3',
          'autopurge.purgeInterval=1',
          ...STATIC_ZOO_CFG,
          '',
        ].join('\n'),
        'dynamic.initial.cfg': `${member(0)}\n${member(1)}\n${member(2)}\n`,
        'start.sh': START_SCRIPT,
        'ready.sh': READY_SCRIPT,
        'alive.sh': ALIVE_SCRIPT,
      },
    });
  });

  it('renders a headless Service that publishes members before they are ready', () => {
    expect(rendered.headlessService).toEqual({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: meta(NAMES.headlessService),
      spec: {
        clusterIP: 'None',
        publishNotReadyAddresses: true,
        selector,
        ports: [
          { name: 'client', port: 2181, targetPort: 2181 },
          { name: 'quorum', port: 2888, targetPort: 2888 },
          { name: 'election', port: 3888, targetPort: 3888 },
        ],
      },
    });
  });

  it('renders a ClusterIP client Service on 2181', () => {
    expect(rendered.clientService).toEqual({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: meta(NAMES.clientService),
      spec: { type: 'ClusterIP', selector, ports: [{ name: 'client', port: 2181, targetPort: 2181 }] },
    });
  });

  it('renders the StatefulSet', () => {
    expect(rendered.statefulSet).toEqual({
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: meta(NAMES.statefulSet),
      spec: {
        replicas: 3,
        serviceName: NAMES.headlessService,
        podManagementPolicy: 'Parallel',
        updateStrategy: { type: 'RollingUpdate' },
        selector: { matchLabels: selector },
        template: {
          metadata: { labels, annotations: { 'zookeeper.zkoam.dev/config-hash': configHash(rendered.configMap) } },
          spec: {
            containers: [
              {
                name: 'zookeeper',
                image: 'zookeeper:3.9.4',
                imagePullPolicy: 'IfNotPresent',
                command: ['bash', '/zk-oam/config/start.sh'],
                env: [
                  fieldEnv('POD_NAME', 'metadata.name'),
                  fieldEnv('POD_NAMESPACE', 'metadata.namespace'),
                  fieldEnv('POD_IP', 'status.podIP'),
                  { name: 'ZK_DOMAIN', value: memberDomain('zk', 'prod') },
                  { name: 'ZK_CONFIG_DIR', value: '/zk-oam/config' },
                  { name: 'ZK_DATA_DIR', value: '/data' },
                  { name: 'ZK_JVM_FLAGS', value: '-Xms512m\n-Xmx512m\n-Dsun.net.inetaddr.ttl=1\n-Dsun.net.inetaddr.negative.ttl=1' },
                  superDigest,
                ],
                ports: [
                  { name: 'client', containerPort: 2181 },
                  { name: 'quorum', containerPort: 2888 },
                  { name: 'election', containerPort: 3888 },
                ],
                readinessProbe: { exec: { command: ['bash', '/zk-oam/config/ready.sh'] }, periodSeconds: 2, timeoutSeconds: 5, failureThreshold: 5 },
                livenessProbe: {
                  exec: { command: ['bash', '/zk-oam/config/alive.sh'] },
                  initialDelaySeconds: 60,
                  periodSeconds: 20,
                  timeoutSeconds: 5,
                  failureThreshold: 6,
                },
                volumeMounts: [
                  { name: 'config', mountPath: '/zk-oam/config', readOnly: true },
                  { name: 'data', mountPath: '/data' },
                ],
              },
            ],
            volumes: [{ name: 'config', configMap: { name: NAMES.configMap } }],
            securityContext: { runAsUser: 1000, runAsGroup: 1000, runAsNonRoot: true, fsGroup: 1000, seccompProfile: { type: 'RuntimeDefault' } },
            terminationGracePeriodSeconds: 30,
            affinity: { podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 100, podAffinityTerm: ownAntiAffinityTerm }] } },
          },
        },
        volumeClaimTemplates: [
          {
            metadata: { name: DATA_VOLUME, labels: selector },
            spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
          },
        ],
        persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Retain' },
      },
    });
  });

  it('renders a PodDisruptionBudget allowing one member down', () => {
    expect(rendered.podDisruptionBudget).toEqual({
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: meta(NAMES.podDisruptionBudget),
      spec: { maxUnavailable: 1, selector: { matchLabels: selector } },
    });
  });

  it('renders no monitoring objects while metrics are off, even with the CRDs present', () => {
    expect({ serviceMonitor: rendered.serviceMonitor, prometheusRule: rendered.prometheusRule }).toEqual({
      serviceMonitor: undefined,
      prometheusRule: undefined,
    });
  });

  it('lets the image reference change the image field alone: start.sh finds ZooKeeper in the image, never from its tag', () => {
    const images = [{ tag: '3.9' }, { tag: '3.9.4-jre-17' }, { repository: 'mirror.example/library/zookeeper' }, { digest: `sha256:${'a'.repeat(64)}` }];
    const withoutImage = (workload: ZookeeperWorkload): object => {
      const { statefulSet, configMap } = renderWorkload({ ...inputs, workload });
      const template = structuredClone(statefulSet.spec?.template);
      delete template?.spec?.containers[0]?.image;
      return { template, configMap };
    };

    const renderedImages = images.map((image) => withoutImage(withSpec(minimalWorkload(), (spec) => ({ ...spec, image: { ...spec.image, ...image } }))));

    expect(renderedImages).toEqual(images.map(() => withoutImage(minimalWorkload())));
  });
});

/** What spec.authentication.x509 changes in the client TLS lines: the client CA as trust store, a certificate asked for. */
const CLIENT_CERTIFICATE_LINES: Record<string, string> = {
  'ssl.trustStore.location': 'ssl.trustStore.location=@CLIENT_CA_DIR@/ca.crt',
  'ssl.clientAuth': 'ssl.clientAuth=want',
};

describe('renderWorkload for a fully specified workload', () => {
  const workload = fullWorkload();
  const rendered = renderWorkload({ workload, replicas: 5, initialMembers: 5, quorumTls: 'Tls', updateStrategy: 'OnDelete', monitoringCrdsPresent: true, certificateFingerprint: 'AB:CD', trustBundleHash: undefined, saslRevision: '7', clientCaDigest: undefined, clientsAdmitted: true });

  it('renders zoo.cfg with every tunable, the metrics provider on the pod IP, TLS, the SASL and x509 providers and the additional config by key', () => {
    expect(rendered.configMap.data?.['zoo.cfg']).toBe(
      [
        'tickTime=3000',
        'initLimit=20',
        'syncLimit=10',
        'maxClientCnxns=0',
        'minSessionTimeout=4000',
        'maxSessionTimeout=40000',
        'autopurge.snapRetainCount=5',
        'autopurge.purgeInterval=24',
        ...STATIC_ZOO_CFG,
        'metricsProvider.className=org.apache.zookeeper.metrics.prometheus.PrometheusMetricsProvider',
        'metricsProvider.httpHost=@POD_IP@',
        'metricsProvider.httpPort=7070',
        ...EXPECTED_TLS_ZOO_CFG.client.map((line) => CLIENT_CERTIFICATE_LINES[line.split('=')[0] ?? ''] ?? line),
        ...EXPECTED_TLS_ZOO_CFG.quorum,
        'authProvider.sasl=org.apache.zookeeper.server.auth.SASLAuthenticationProvider',
        'authProvider.x509=org.apache.zookeeper.server.auth.X509AuthenticationProvider',
        'globalOutstandingLimit=2000',
        'jute.maxbuffer=4194304',
        '',
      ].join('\n'),
    );
    expect(rendered.configMap.data?.['dynamic.initial.cfg']).toBe([0, 1, 2, 3, 4].map((ordinal) => `${member(ordinal)}\n`).join(''));
  });

  it('renders the client Service with the requested type and annotations, and the secure port beside the plain one', () => {
    expect(rendered.clientService).toEqual({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { ...meta(NAMES.clientService), annotations: { 'example.com/internal': 'true' } },
      spec: {
        type: 'LoadBalancer',
        selector,
        ports: [
          { name: 'client', port: 2181, targetPort: 2181 },
          { name: 'client-tls', port: 2281, targetPort: 2281 },
        ],
      },
    });
  });

  it('adds the metrics port to the headless Service', () => {
    expect(rendered.headlessService.spec?.ports?.at(-1)).toEqual({ name: 'metrics', port: 7070, targetPort: 7070 });
  });

  it('renders the StatefulSet with resources, heap, placement, security context and the given Secret', () => {
    const statefulSetSpec = rendered.statefulSet.spec;
    const podSpec = statefulSetSpec?.template.spec;
    const container = podSpec?.containers[0];
    if (statefulSetSpec === undefined || podSpec === undefined || container === undefined) {
      throw new Error('the StatefulSet has no pod template with a container');
    }
    const env = (name: string): V1EnvVar | undefined => container.env?.find((variable) => variable.name === name);
    expect({
      replicas: statefulSetSpec.replicas,
      updateStrategy: statefulSetSpec.updateStrategy,
      image: container.image,
      imagePullPolicy: container.imagePullPolicy,
      imagePullSecrets: podSpec.imagePullSecrets,
      resources: container.resources,
      jvm: env('ZK_JVM_FLAGS'),
      superDigest: env('ZK_SUPER_DIGEST'),
      metricsPort: container.ports?.at(-1),
      securityContext: podSpec.securityContext,
      affinity: podSpec.affinity,
      topologySpreadConstraints: podSpec.topologySpreadConstraints,
      nodeSelector: podSpec.nodeSelector,
      tolerations: podSpec.tolerations,
      priorityClassName: podSpec.priorityClassName,
      claims: statefulSetSpec.volumeClaimTemplates,
      claimRetention: statefulSetSpec.persistentVolumeClaimRetentionPolicy,
    }).toEqual({
      replicas: 5,
      updateStrategy: { type: 'OnDelete' },
      image: 'registry.example/zookeeper:3.9.3',
      imagePullPolicy: 'Always',
      imagePullSecrets: [{ name: 'registry' }],
      resources: { requests: { cpu: '500m', memory: '1Gi' }, limits: { cpu: '2', memory: '2Gi' } },
      jvm: { name: 'ZK_JVM_FLAGS', value: '-Xms1536m\n-Xmx1536m\n-Dsun.net.inetaddr.ttl=1\n-Dsun.net.inetaddr.negative.ttl=1\n-XX:+UseG1GC' },
      superDigest,
      metricsPort: { name: 'metrics', containerPort: 7070 },
      securityContext: { runAsUser: 1000, runAsNonRoot: true, fsGroup: 1000, seccompProfile: { type: 'RuntimeDefault' } },
      affinity: {
        nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [] },
        podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [ownAntiAffinityTerm] },
      },
      topologySpreadConstraints: [
        { maxSkew: 1, topologyKey: 'topology.kubernetes.io/zone', whenUnsatisfiable: 'DoNotSchedule', labelSelector: { matchLabels: selector } },
      ],
      nodeSelector: { 'node-role/zookeeper': 'true' },
      tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'zookeeper', effect: 'NoSchedule' }],
      priorityClassName: 'high',
      claims: [
        {
          metadata: { name: DATA_VOLUME, labels: selector },
          spec: { accessModes: ['ReadWriteOnce'], storageClassName: 'fast', resources: { requests: { storage: '20Gi' } } },
        },
      ],
      claimRetention: { whenDeleted: 'Delete', whenScaled: 'Retain' },
    });
  });

  it('renders a ServiceMonitor scraping the metrics port', () => {
    expect(rendered.serviceMonitor).toEqual({
      apiVersion: 'monitoring.coreos.com/v1',
      kind: 'ServiceMonitor',
      metadata: meta(NAMES.serviceMonitor),
      spec: {
        selector: { matchLabels: selector },
        namespaceSelector: { matchNames: ['prod'] },
        endpoints: [{ port: 'metrics', path: '/metrics', interval: '30s' }],
      },
    });
  });

  it('renders a PrometheusRule alerting on no leader, members down, latency and outstanding requests', () => {
    const series = `namespace="prod",job="${NAMES.headlessService}"`;
    expect(rendered.prometheusRule?.metadata).toEqual(meta(NAMES.prometheusRule));
    expect(rendered.prometheusRule?.spec.groups.map((group) => ({ name: group.name, rules: group.rules.map(({ alert, expr, for: duration, labels: ruleLabels }) => ({ alert, expr, for: duration, severity: ruleLabels.severity })) }))).toEqual([
      {
        name: 'zookeeper.prod.zk',
        rules: [
          { alert: 'ZookeeperNoLeader', expr: `absent(leader_uptime{${series}})`, for: '1m', severity: 'critical' },
          {
            alert: 'ZookeeperMemberDown',
            expr: `max(quorum_size{${series}}) - 1 - (max(synced_followers{${series}}) - max(synced_non_voting_followers{${series}})) > 0`,
            for: '2m',
            severity: 'warning',
          },
          { alert: 'ZookeeperHighLatency', expr: `avg_latency{${series}} > 100`, for: '5m', severity: 'warning' },
          { alert: 'ZookeeperOutstandingRequests', expr: `outstanding_requests{${series}} > 10`, for: '5m', severity: 'warning' },
        ],
      },
    ]);
  });

  it('leaves the monitoring objects out when the CRDs are absent', () => {
    const without = renderWorkload({ workload, replicas: 5, initialMembers: 5, quorumTls: 'Tls', updateStrategy: 'OnDelete', monitoringCrdsPresent: false, certificateFingerprint: undefined, trustBundleHash: undefined, saslRevision: undefined, clientCaDigest: undefined, clientsAdmitted: true });
    expect({ serviceMonitor: without.serviceMonitor, prometheusRule: without.prometheusRule }).toEqual({ serviceMonitor: undefined, prometheusRule: undefined });
  });
});
