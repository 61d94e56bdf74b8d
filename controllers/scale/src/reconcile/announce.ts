// The facts a status change announces (pure): a member change started or completed, the scaling got blocked, and
// the Ready condition newly saying what a person must hear of at once; then their publishing: each is a Kubernetes
// Event on the trait and, but for the last, a NATS event about the workload, published after the status that records
// it is stored.
import { conditionNews, warningOnNews, type EventDetails, type KubeObject } from '@zk-oam/runtime';
import {
  isCatalogued,
  ordinalOfMyid,
  SCALE_REASONS,
  workloadEvent,
  type ScaleReason,
  type ScaleStep,
  type WorkloadSubject,
  type ZookeeperScaleStatus,
} from '@zk-oam/apis';
import type { ScaleReconcilerDependencies } from './dependencies.js';

interface StepData {
  step: number;
  from: number;
  to: number;
  member: string;
}

type NatsFact =
  | { readonly type: 'ScaleStepStarted' | 'ScaleStepCompleted'; readonly data: StepData }
  | { readonly type: 'ScaleBlocked'; readonly data: { reason: string; message: string } };

export interface Fact {
  readonly kubernetes: EventDetails<ScaleReason>;
  readonly nats: NatsFact | undefined;
}

/** Ready newly False for these reasons is a Warning, with the action that could not go on. */
const READY_WARNINGS = { InvalidSpec: 'Validate', DisruptionLockLost: 'Lock' } as const satisfies Partial<Record<ScaleReason, string>>;

export function factsOf(previous: ZookeeperScaleStatus | undefined, next: ZookeeperScaleStatus): Fact[] {
  const before = previous?.step;
  const after = next.step;
  const from = next.operation?.from ?? previous?.operation?.from;
  const changed = before !== undefined && (after === undefined || !sameChange(before, after));
  const started = after !== undefined && (before === undefined || !sameChange(before, after));
  const warning = warningOnNews(previous?.conditions, next.conditions, 'Ready', READY_WARNINGS);
  return [
    ...(changed ? [stepFact('ScaleStepCompleted', before, from)] : []),
    ...(started ? [stepFact('ScaleStepStarted', after, from)] : []),
    ...blocked(previous, next),
    ...(warning === undefined ? [] : [{ kubernetes: warning, nats: undefined }]),
  ];
}

function sameChange(a: ScaleStep, b: ScaleStep): boolean {
  return a.action === b.action && a.myid === b.myid;
}

function stepFact(type: 'ScaleStepStarted' | 'ScaleStepCompleted', step: ScaleStep, operationFrom: number | undefined): Fact {
  const data = stepData(step, operationFrom);
  const verb = step.action === 'Add' ? 'adding' : 'removing';
  const what = type === 'ScaleStepStarted' ? 'started' : 'completed';
  const note = `step ${data.step} ${what}: ${verb} ${step.pod} (myid ${step.myid}), ${data.from} -> ${data.to} members`;
  return { kubernetes: { type: 'Normal', reason: type, action: step.action === 'Add' ? 'AddMember' : 'RemoveMember', note }, nats: { type, data } };
}

/** Member m joins as the m-th voter and leaves as it; steps count from the operation's starting size. */
export function stepData(step: ScaleStep, operationFrom: number | undefined): StepData {
  const adding = step.action === 'Add';
  const from = adding ? ordinalOfMyid(step.myid) : step.myid;
  const to = adding ? step.myid : ordinalOfMyid(step.myid);
  const start = operationFrom ?? from;
  return { step: Math.max(1, adding ? step.myid - start : start - step.myid + 1), from, to, member: step.pod };
}

/** Newly Blocked, or Blocked for another reason: a Warning and ScaleBlocked. */
function blocked(previous: ZookeeperScaleStatus | undefined, next: ZookeeperScaleStatus): Fact[] {
  const is = conditionNews(previous?.conditions, next.conditions, 'Blocked');
  if (is?.status !== 'True') return [];
  // nextStatus sets Blocked reasons from the catalog only; an unknown one cannot be explained, so it is not announced.
  if (!isCatalogued(SCALE_REASONS, is.reason)) return [];
  const data = { reason: is.reason, message: is.message };
  return [{ kubernetes: { type: 'Warning', reason: is.reason, action: 'Scale', note: is.message }, nats: { type: 'ScaleBlocked', data } }];
}

/** Events about the trait; NATS events about the workload it acts on (none without one), so one subject hierarchy covers an ensemble. */
export async function announce(
  deps: Pick<ScaleReconcilerDependencies, 'recorder' | 'bus' | 'source'>,
  trait: KubeObject,
  workload: WorkloadSubject | undefined,
  facts: readonly Fact[],
): Promise<void> {
  for (const fact of facts) {
    await deps.recorder.record(trait, fact.kubernetes);
    if (fact.nats !== undefined && workload !== undefined) await deps.bus.publish(workloadEvent(fact.nats, workload, { source: deps.source }));
  }
}
