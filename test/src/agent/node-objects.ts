// The Node, its status and its heartbeat Lease, as the agent registers them (pure rendering).
import { V1MicroTime, type V1Lease, type V1Node, type V1NodeStatus } from '@kubernetes/client-node';

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

/**
 * The node's heartbeat Lease, renewed from its creation on. kube-controller-manager's node lifecycle controller keeps the
 * first Lease it sees and counts a later one as a heartbeat only if its renewTime is after the kept one's; a Lease first
 * seen without renewTime never counts again, and the node then lives on its status heartbeat alone.
 */
export function renderLease(node: V1Node, now: Date): V1Lease {
  const name = node.metadata?.name ?? '';
  const uid = node.metadata?.uid;
  return {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { name, namespace: leaseNamespace, ownerReferences: uid === undefined ? [] : [{ apiVersion: 'v1', kind: 'Node', name, uid }] },
    spec: { holderIdentity: name, leaseDurationSeconds, renewTime: new V1MicroTime(now.getTime()) },
  };
}
