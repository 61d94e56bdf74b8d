// The facts a status change announces: a member change started or completed, the scaling got blocked (pure), then
// their publishing: each becomes a Kubernetes Event on the trait and a NATS event about the workload, published after
// the status that records it is stored.
import type { EventDetails, KubeObject } from '@zk-oam/runtime';
import {
  createEvent,
  isCatalogued,
  ordinalOfMyid,
  SCALE_REASONS,
  ZOOKEEPER_WORKLOAD,
  type ScaleReason,
  type ScaleStep,
  type ZkEvent,
  type ZookeeperScaleStatus,
} from '@zk-oam/apis';
import type { ScaleReconcilerDependencies } from './dependencies.js';

interface StepData {
  step: number;
  from: number;
  to: number;
  member: string;
}

export type Announcement =
  | { type: 'ScaleStepStarted'; data: StepData; kubernetes: EventDetails<ScaleReason> }
  | { type: 'ScaleStepCompleted'; data: StepData; kubernetes: EventDetails<ScaleReason> }
  | { type: 'ScaleBlocked'; data: { reason: string; message: string }; kubernetes: EventDetails<ScaleReason> };

export function announcements(previous: ZookeeperScaleStatus | undefined, next: ZookeeperScaleStatus): Announcement[] {
  const before = previous?.step;
  const after = next.step;
  const from = next.operation?.from ?? previous?.operation?.from;
  const changed = before !== undefined && (after === undefined || !sameChange(before, after));
  const started = after !== undefined && (before === undefined || !sameChange(before, after));
  return [
    ...(changed ? [stepAnnouncement('ScaleStepCompleted', before, from)] : []),
    ...(started ? [stepAnnouncement('ScaleStepStarted', after, from)] : []),
    ...blocked(previous, next),
  ];
}

function sameChange(a: ScaleStep, b: ScaleStep): boolean {
  return a.action === b.action && a.myid === b.myid;
}

function stepAnnouncement(type: 'ScaleStepStarted' | 'ScaleStepCompleted', step: ScaleStep, operationFrom: number | undefined): Announcement {
  const data = stepData(step, operationFrom);
  const verb = step.action === 'Add' ? 'adding' : 'removing';
  const what = type === 'ScaleStepStarted' ? 'started' : 'completed';
  const note = `step ${data.step} ${what}: ${verb} ${step.pod} (myid ${step.myid}), ${data.from} -> ${data.to} members`;
  return { type, data, kubernetes: { type: 'Normal', reason: type, action: step.action === 'Add' ? 'AddMember' : 'RemoveMember', note } };
}

/** Member m joins as the m-th voter and leaves as it; steps count from the operation's starting size. */
export function stepData(step: ScaleStep, operationFrom: number | undefined): StepData {
  const adding = step.action === 'Add';
  const from = adding ? ordinalOfMyid(step.myid) : step.myid;
  const to = adding ? step.myid : ordinalOfMyid(step.myid);
  const start = operationFrom ?? from;
  return { step: Math.max(1, adding ? step.myid - start : start - step.myid + 1), from, to, member: step.pod };
}

function blocked(previous: ZookeeperScaleStatus | undefined, next: ZookeeperScaleStatus): Announcement[] {
  const was = previous?.conditions?.find((condition) => condition.type === 'Blocked');
  const is = next.conditions?.find((condition) => condition.type === 'Blocked');
  if (is?.status !== 'True' || (was?.status === 'True' && was.reason === is.reason)) return [];
  // nextStatus sets Blocked reasons from the catalog only; an unknown one cannot be explained, so it is not announced.
  if (!isCatalogued(SCALE_REASONS, is.reason)) return [];
  const data = { reason: is.reason, message: is.message };
  return [{ type: 'ScaleBlocked', data, kubernetes: { type: 'Warning', reason: is.reason, action: 'Scale', note: is.message } }];
}

export interface WorkloadSubject {
  readonly namespace: string;
  readonly name: string;
  readonly uid: string | undefined;
}

/** Events about the trait; NATS events about the workload it acts on (none without one), so one subject hierarchy covers an ensemble. */
export async function announce(
  deps: Pick<ScaleReconcilerDependencies, 'recorder' | 'bus' | 'source'>,
  trait: KubeObject,
  workload: WorkloadSubject | undefined,
  made: readonly Announcement[],
): Promise<void> {
  for (const announcement of made) {
    await deps.recorder.record(trait, announcement.kubernetes);
    if (workload !== undefined) await deps.bus.publish(natsEventOf(announcement, workload, deps.source));
  }
}

function natsEventOf(announcement: Announcement, workload: WorkloadSubject, source: string): ZkEvent {
  const subject = {
    apiVersion: ZOOKEEPER_WORKLOAD.apiVersion,
    kind: ZOOKEEPER_WORKLOAD.kind,
    namespace: workload.namespace,
    name: workload.name,
    ...(workload.uid === undefined ? {} : { uid: workload.uid }),
  };
  switch (announcement.type) {
    case 'ScaleStepStarted':
      return createEvent({ type: announcement.type, data: announcement.data, source, subject });
    case 'ScaleStepCompleted':
      return createEvent({ type: announcement.type, data: announcement.data, source, subject });
    case 'ScaleBlocked':
      return createEvent({ type: announcement.type, data: announcement.data, source, subject });
  }
}
