// The Node, its status and its heartbeat Lease, as the agent registers them (pure rendering).
import type { V1Node, V1NodeStatus } from '@kubernetes/client-node';

export const nodeZones = ['bed-zone-a', 'bed-zone-b', 'bed-zone-c'] as const;

export const nodeAllocatable: Readonly<Record<string, string>> = { cpu: '4', memory: '8Gi', pods: '110', 'ephemeral-storage': '20Gi' };

export const leaseNamespace = 'kube-node-lease';
export const leaseDurationSeconds = 40;

/** Zones are dealt round-robin in the order the nodes were given, so 3+ nodes cover every zone. */
export function renderNode(name: string, index: number): V1Node {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      labels: {
        'kubernetes.io/hostname': name,
        'kubernetes.io/os': 'linux',
        'kubernetes.io/arch': 'amd64',
        'topology.kubernetes.io/zone': nodeZones[index % nodeZones.length] ?? 'bed-zone-a',
        'node.zkoam.dev/bed': 'true',
      },
    },
    spec: {},
  };
}

/** `address`: the nodes' address on the bed network (they share one namespace, and so one address). */
export function renderNodeStatus(name: string, address: string, now: Date, readySince: Date): V1NodeStatus {
  const healthy = (type: string, status: string, reason: string): { type: string; status: string; reason: string; message: string; lastHeartbeatTime: Date; lastTransitionTime: Date } => ({
    type,
    status,
    reason,
    message: `bed node agent reports ${type}=${status}`,
    lastHeartbeatTime: now,
    lastTransitionTime: readySince,
  });
  return {
    conditions: [
      healthy('Ready', 'True', 'KubeletReady'),
      healthy('MemoryPressure', 'False', 'KubeletHasSufficientMemory'),
      healthy('DiskPressure', 'False', 'KubeletHasNoDiskPressure'),
      healthy('PIDPressure', 'False', 'KubeletHasSufficientPID'),
    ],
    addresses: [
      { type: 'InternalIP', address },
      { type: 'Hostname', address: name },
    ],
    capacity: { ...nodeAllocatable },
    allocatable: { ...nodeAllocatable },
    nodeInfo: {
      architecture: 'amd64',
      operatingSystem: 'linux',
      osImage: 'zk-oam test bed',
      kernelVersion: '',
      kubeletVersion: 'bed-agent',
      kubeProxyVersion: '',
      containerRuntimeVersion: 'runc',
      machineID: name,
      systemUUID: name,
      bootID: name,
    },
  };
}

/** metav1.MicroTime wants exactly six fractional digits; Date#toISOString gives three. */
export function microTime(date: Date): string {
  return date.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}
