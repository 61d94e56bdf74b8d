// The bed's cluster DNS: CoreDNS (built from its Go module, test/network/build.sh) as kube-system's `coredns`
// Deployment behind the `kube-dns` Service, as kubeadm installs it, answering for cluster.local only (the bed reaches
// nothing outside). No cache in front of it: the kubernetes plugin answers from what it watches, so a member replaced
// under the same name is found at its new address at once (answers say 5 s; ZooKeeper's JVM keeps them 1 s).
import { Resolver } from 'node:dns/promises';
import { ApiException, AppsV1Api, KubernetesObjectApi, type KubeConfig, type KubernetesObject } from '@kubernetes/client-node';
import type { BedAddresses } from './bed-network.js';
import { COREDNS_IMAGE_REFERENCE } from '../network/coredns-image.js';
import { POLL_INTERVAL_MS, waitFor } from '../wait-for.js';

const NAMESPACE = 'kube-system';
const LABELS = { 'k8s-app': 'kube-dns' };

export const COREFILE = `.:53 {
    errors
    health {
        lameduck 2s
    }
    ready
    kubernetes cluster.local in-addr.arpa ip6.arpa {
        pods insecure
        fallthrough in-addr.arpa ip6.arpa
        ttl 5
    }
    loadbalance
}
`;

/** Every object of the bed's cluster DNS, in the order they are created. Pure. */
export function renderClusterDns(network: Pick<BedAddresses, 'dnsServiceIp'>): KubernetesObject[] {
  const metadata = (name: string, namespaced = true): { name: string; namespace?: string; labels: Record<string, string> } => ({
    name,
    ...(namespaced ? { namespace: NAMESPACE } : {}),
    labels: { ...LABELS },
  });
  return [
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: metadata('coredns') },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: metadata('system:coredns', false),
      rules: [
        { apiGroups: [''], resources: ['endpoints', 'services', 'pods', 'namespaces'], verbs: ['list', 'watch'] },
        { apiGroups: ['discovery.k8s.io'], resources: ['endpointslices'], verbs: ['list', 'watch'] },
      ],
    } as KubernetesObject,
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: metadata('system:coredns', false),
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'system:coredns' },
      subjects: [{ kind: 'ServiceAccount', name: 'coredns', namespace: NAMESPACE }],
    } as KubernetesObject,
    { apiVersion: 'v1', kind: 'ConfigMap', metadata: metadata('coredns'), data: { Corefile: COREFILE } } as KubernetesObject,
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: metadata('coredns'),
      spec: {
        replicas: 1,
        selector: { matchLabels: { ...LABELS } },
        template: {
          metadata: { labels: { ...LABELS } },
          spec: {
            serviceAccountName: 'coredns',
            priorityClassName: 'system-cluster-critical',
            // CoreDNS itself must not ask cluster DNS.
            dnsPolicy: 'Default',
            containers: [
              {
                name: 'coredns',
                image: COREDNS_IMAGE_REFERENCE,
                imagePullPolicy: 'IfNotPresent',
                args: ['-conf', '/etc/coredns/Corefile'],
                ports: [
                  { name: 'dns', containerPort: 53, protocol: 'UDP' },
                  { name: 'dns-tcp', containerPort: 53, protocol: 'TCP' },
                ],
                readinessProbe: { httpGet: { path: '/ready', port: 8181 }, periodSeconds: 2 },
                livenessProbe: { httpGet: { path: '/health', port: 8080 }, periodSeconds: 10, failureThreshold: 5 },
                securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, readOnlyRootFilesystem: true, runAsNonRoot: true },
                volumeMounts: [{ name: 'config-volume', mountPath: '/etc/coredns', readOnly: true }],
              },
            ],
            volumes: [{ name: 'config-volume', configMap: { name: 'coredns', items: [{ key: 'Corefile', path: 'Corefile' }] } }],
          },
        },
      },
    } as KubernetesObject,
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: metadata('kube-dns'),
      spec: {
        clusterIP: network.dnsServiceIp,
        selector: { ...LABELS },
        ports: [
          { name: 'dns', port: 53, protocol: 'UDP', targetPort: 53 },
          { name: 'dns-tcp', port: 53, protocol: 'TCP', targetPort: 53 },
        ],
      },
    } as KubernetesObject,
  ];
}

/** Creates the cluster DNS's objects; what exists is left as it is. Its pod starts once the nodes are Ready. */
export async function createClusterDns(kubeConfig: KubeConfig, network: Pick<BedAddresses, 'dnsServiceIp'>): Promise<void> {
  const objects = KubernetesObjectApi.makeApiClient(kubeConfig);
  for (const object of renderClusterDns(network)) {
    try {
      await objects.create(object);
    } catch (error) {
      if (!(error instanceof ApiException && error.code === 409)) throw error;
    }
  }
}

/** Waits until CoreDNS is available and the `kube-dns` Service answers a query. */
export async function waitForClusterDns(kubeConfig: KubeConfig, network: Pick<BedAddresses, 'dnsServiceIp'>, timeoutMs: number): Promise<void> {
  const apps = kubeConfig.makeApiClient(AppsV1Api);
  await waitFor(
    'the coredns Deployment to be available',
    async () => (await apps.readNamespacedDeployment({ name: 'coredns', namespace: NAMESPACE })).status?.availableReplicas ?? 0,
    (available) => available > 0,
    timeoutMs,
    POLL_INTERVAL_MS,
  );
  await waitFor('kube-dns to answer', () => resolveThrough(network.dnsServiceIp, 'kubernetes.default.svc.cluster.local'), (addresses) => addresses.length > 0, timeoutMs, POLL_INTERVAL_MS);
}

/** The A records `name` has, asked of the nameserver at `server` alone; none when it does not answer. */
export async function resolveThrough(server: string, name: string): Promise<string[]> {
  const resolver = new Resolver({ timeout: 1_000, tries: 1 });
  resolver.setServers([server]);
  return resolver.resolve4(name).catch(() => []);
}
