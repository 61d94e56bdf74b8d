// The pod security context: the user's, or the official image's zookeeper user (uid/gid 1000), non-root, RuntimeDefault.
import type { V1PodSecurityContext } from '@kubernetes/client-node';
import type { ZookeeperWorkloadSpec } from '@zk-oam/apis';

export const DEFAULT_POD_SECURITY_CONTEXT: V1PodSecurityContext = {
  runAsUser: 1000,
  runAsGroup: 1000,
  runAsNonRoot: true,
  // The data volume is writable by the server's group.
  fsGroup: 1000,
  seccompProfile: { type: 'RuntimeDefault' },
};

export function buildPodSecurityContext(spec: Pick<ZookeeperWorkloadSpec, 'podSecurityContext'>): V1PodSecurityContext {
  return spec.podSecurityContext ?? DEFAULT_POD_SECURITY_CONTEXT;
}
