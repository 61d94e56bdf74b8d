// The facts a status change announces (pure): a member change started or completed, the scaling got blocked. Each
// becomes a Kubernetes Event on the trait and a NATS event, published after the status that records it is stored.
import type { EventDetails } from '@zk-oam/runtime';
import { isCatalogued, ordinalOfMyid, SCALE_REASONS, type ScaleReason, type ScaleStep, type ZookeeperScaleStatus } from '@zk-oam/apis';

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
