// Step 5: observe the ensemble, keep the look in memory (zxids for the observation request-reply, not for the status),
// derive the status, write it when it changed, then announce each fact (Kubernetes Event and NATS event). Facts are
// published after the status that records them is stored.
import type { V1StatefulSet } from '@kubernetes/client-node';
import { createEvent, myidOfPod, ZOOKEEPER_WORKLOAD, type ZkEvent, type ZookeeperWorkload, type ZookeeperWorkloadStatus } from '@zk-oam/apis';
import { keyOf, storedStatus, writeStatusIfChanged, type KubeObject } from '@zk-oam/runtime';
import type { MemberAccess } from '@zk-oam/zookeeper';
import { deriveStatus, statusChanges, type StatusChange } from '../observe/index.js';
import { selectorLabels, workloadNames } from '../render/identity.js';
import { podView } from './cached-objects.js';
import type { WorkloadReconcilerDependencies } from './dependencies.js';
import type { ScaleRefusal } from './render-decisions.js';
import { withScaleRefusal } from './scale-refusal.js';
import { WORKLOAD_STATUS } from './status-writer.js';

type Deps = Pick<WorkloadReconcilerDependencies, 'client' | 'caches' | 'recorder' | 'bus' | 'observe' | 'observations' | 'now' | 'source'>;

export interface StatusReport {
  readonly status: ZookeeperWorkloadStatus;
  readonly written: boolean;
  readonly changes: readonly StatusChange[];
  /** Whether any member has a pod IP to observe; without one, only pod events can change what there is to see. */
  readonly observable: boolean;
}

/** One NATS event per fact; the switch keeps each type paired with its own data. */
export function natsEventOf(change: StatusChange, workload: ZookeeperWorkload, source: string): ZkEvent {
  const subject = {
    apiVersion: ZOOKEEPER_WORKLOAD.apiVersion,
    kind: ZOOKEEPER_WORKLOAD.kind,
    namespace: workload.metadata.namespace ?? '',
    name: workload.metadata.name,
    uid: workload.metadata.uid,
  };
  switch (change.type) {
    case 'LeaderChanged':
      return createEvent({ type: change.type, data: change.data, source, subject });
    case 'MembershipChanged':
      return createEvent({ type: change.type, data: change.data, source, subject });
    case 'ReadinessChanged':
      return createEvent({ type: change.type, data: change.data, source, subject });
    case 'TemplateRevisionChanged':
      return createEvent({ type: change.type, data: change.data, source, subject });
  }
}

export async function reportStatus(
  deps: Deps,
  raw: KubeObject,
  workload: ZookeeperWorkload,
  statefulSet: V1StatefulSet | undefined,
  refusal: ScaleRefusal | undefined,
  access: MemberAccess,
): Promise<StatusReport> {
  const namespace = workload.metadata.namespace ?? '';
  const pods = deps.caches.pods.list({ namespace, labels: selectorLabels(workload) }).map(podView);
  const statefulSetName = workloadNames(workload).statefulSet;
  const members = pods.flatMap((pod) => {
    const name = pod.metadata?.name ?? '';
    const myid = myidOfPod(name, statefulSetName);
    return myid === undefined ? [] : [{ pod: name, myid, ip: pod.status?.podIP }];
  });
  const ensemble = members.length === 0 ? undefined : await deps.observe(members, access);
  const now = deps.now();
  deps.observations.record({ namespace, name: workload.metadata.name, uid: workload.metadata.uid }, ensemble, now);
  const stored = storedStatus(WORKLOAD_STATUS.schema, raw);
  const derived = deriveStatus({ workload: { ...workload, status: stored }, statefulSet, pods, ensemble, now });
  const status = withScaleRefusal(derived.status, refusal, stored, { generation: workload.metadata.generation, now });
  const written = await writeStatusIfChanged(deps.client, WORKLOAD_STATUS, keyOf(raw), stored, status);
  const changes = written ? statusChanges(stored, derived) : [];
  for (const change of changes) {
    await deps.recorder.record(raw, change.kubernetes);
    await deps.bus.publish(natsEventOf(change, workload, deps.source));
  }
  return { status, written, changes, observable: members.some((member) => member.ip !== undefined) };
}
