// The facts to announce when status moves: each maps 1:1 to a NATS event (type + data) and to a Kubernetes Event.
import type { WorkloadReason, ZkEventData, ZookeeperWorkloadStatus } from '@zk-oam/apis';
import type { DerivedStatus } from './derive-status.js';

export type WorkloadEventType = 'LeaderChanged' | 'MembershipChanged' | 'ReadinessChanged' | 'TemplateRevisionChanged';

/**
 * Shaped like the runtime's EventDetails, so `recorder.record(workload, change.kubernetes)` needs no mapping. The
 * reason is the NATS event type, so `kubectl describe` and the bus tell the same story; a Warning's is also one the
 * troubleshooting guide explains.
 */
export type KubernetesEventDetails =
  | { type: 'Warning'; reason: WorkloadEventType & WorkloadReason; action: 'Observed'; note: string }
  | { type: 'Normal'; reason: WorkloadEventType; action: 'Observed'; note: string };

export type StatusChange = {
  [T in WorkloadEventType]: { type: T; data: ZkEventData<T>; kubernetes: KubernetesEventDetails };
}[WorkloadEventType];

/** Empty when nothing worth announcing changed. `previous` is the status stored before this observation. */
export function statusChanges(previous: ZookeeperWorkloadStatus | undefined, next: DerivedStatus): StatusChange[] {
  const changes = [
    leaderChange(previous, next.status),
    membershipChange(previous, next),
    readinessChange(previous, next.status),
    revisionChange(previous, next.status),
  ];
  return changes.filter((change): change is StatusChange => change !== undefined);
}

function leaderChange(previous: ZookeeperWorkloadStatus | undefined, next: ZookeeperWorkloadStatus): StatusChange | undefined {
  const from = previous?.leader;
  const to = next.leader;
  if (from === to) {
    return undefined;
  }
  const was = from === undefined ? '' : ` (was ${from})`;
  return {
    type: 'LeaderChanged',
    data: { from, to },
    kubernetes:
      to === undefined
        ? warning('LeaderChanged', `no leader${was}`)
        : normal('LeaderChanged', `leader is now ${to}${was}`),
  };
}

function membershipChange(previous: ZookeeperWorkloadStatus | undefined, next: DerivedStatus): StatusChange | undefined {
  const membership = next.membership;
  if (membership === undefined || membership.configVersion === previous?.configVersion) {
    return undefined;
  }
  const voters = membership.members.filter((member) => member.role === 'participant').map((member) => member.pod);
  const observers = membership.members.filter((member) => member.role === 'observer').map((member) => member.pod);
  const observing = observers.length === 0 ? '' : `, observers ${observers.join(', ')}`;
  const was = previous?.configVersion === undefined ? '' : ` (was ${previous.configVersion})`;
  return {
    type: 'MembershipChanged',
    data: { members: membership.members, configVersion: membership.configVersion },
    kubernetes: normal(
      'MembershipChanged',
      `committed config ${membership.configVersion}${was} has ${voters.length} voters: ${voters.join(', ')}${observing}`,
    ),
  };
}

/**
 * A new workload's first status is a change only once it is ready: not ready is where every ensemble starts, and a
 * Warning beside the Event that names its new children would tell a person something is wrong when nothing is.
 */
function readinessChange(previous: ZookeeperWorkloadStatus | undefined, next: ZookeeperWorkloadStatus): StatusChange | undefined {
  const before = readiness(previous);
  const after = readiness(next);
  if (previous === undefined && !after.ready) {
    return undefined;
  }
  if (before.ready === after.ready && before.readyReplicas === after.readyReplicas && before.replicas === after.replicas) {
    return undefined;
  }
  const counts = `${after.readyReplicas}/${after.replicas} members serving and synced`;
  return {
    type: 'ReadinessChanged',
    data: after,
    kubernetes: after.ready
      ? normal('ReadinessChanged', `ready: ${counts}`)
      : warning('ReadinessChanged', `not ready: ${counts}`),
  };
}

/** A workload's first template revision is the one its pods start from: no pod moves, so it is not announced. */
function revisionChange(previous: ZookeeperWorkloadStatus | undefined, next: ZookeeperWorkloadStatus): StatusChange | undefined {
  const from = previous?.updateRevision;
  const to = next.updateRevision;
  if (from === undefined || to === undefined || from === to) {
    return undefined;
  }
  return {
    type: 'TemplateRevisionChanged',
    data: { from, to },
    kubernetes: normal('TemplateRevisionChanged', `pods move to template revision ${to} (was ${from})`),
  };
}

function readiness(status: ZookeeperWorkloadStatus | undefined): ZkEventData<'ReadinessChanged'> {
  return {
    ready: status?.conditions?.find((condition) => condition.type === 'Ready')?.status === 'True',
    readyReplicas: status?.readyReplicas ?? 0,
    replicas: status?.replicas ?? 0,
  };
}

function normal(reason: WorkloadEventType, note: string): KubernetesEventDetails {
  return { type: 'Normal', reason, action: 'Observed', note };
}

function warning(reason: WorkloadEventType & WorkloadReason, note: string): KubernetesEventDetails {
  return { type: 'Warning', reason, action: 'Observed', note };
}
