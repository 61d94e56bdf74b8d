// A ZookeeperWorkload spec that sets every field: documentation by example, and a fixture for tests and samples.
import type { ZookeeperWorkloadSpec } from './spec.js';

/** Every field set, so parsing it (zod or the apiserver) must return it unchanged. */
export const FULL_WORKLOAD_SPEC_EXAMPLE: ZookeeperWorkloadSpec = {
  image: { repository: 'registry.example/zookeeper', tag: '3.9.3', pullPolicy: 'Always', pullSecrets: [{ name: 'registry' }] },
  replicas: 5,
  resources: { requests: { cpu: '500m', memory: '1Gi' }, limits: { cpu: 2, memory: '2Gi' } },
  jvm: { heap: '1536Mi', extraOptions: ['-XX:+UseG1GC'] },
  storage: { size: '20Gi', storageClassName: 'fast', reclaimPolicy: 'Delete' },
  config: {
    tickTime: 3000,
    initLimit: 20,
    syncLimit: 10,
    maxClientCnxns: 0,
    minSessionTimeout: 4000,
    maxSessionTimeout: 40000,
    autopurge: { snapRetainCount: 5, purgeInterval: 24 },
    additionalConfig: { 'jute.maxbuffer': '4194304', globalOutstandingLimit: '2000' },
  },
  metrics: { enabled: true, port: 7070 },
  placement: {
    antiAffinity: 'required',
    topologySpreadConstraints: [{ maxSkew: 1, topologyKey: 'topology.kubernetes.io/zone', whenUnsatisfiable: 'DoNotSchedule' }],
    nodeSelector: { 'node-role/zookeeper': 'true' },
    tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'zookeeper', effect: 'NoSchedule' }],
    priorityClassName: 'high',
    affinity: { nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [] } },
  },
  podSecurityContext: { runAsUser: 1000, runAsNonRoot: true, fsGroup: 1000, seccompProfile: { type: 'RuntimeDefault' } },
  clientService: { type: 'LoadBalancer', port: 2181, annotations: { 'example.com/internal': 'true' } },
  superuserSecretRef: { name: 'zk-superuser' },
  tls: { quorum: true, client: 'Alongside', certificates: { validityHours: 720, caSecretRef: { name: 'zk-ca' } } },
  authentication: { sasl: { usersSecretRef: { name: 'zk-users' } }, x509: { clientCaSecretRef: { name: 'zk-client-ca' } } },
};
