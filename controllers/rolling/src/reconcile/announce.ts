// The facts one reconcile established, each as a Kubernetes Event and a NATS event, published after the status that
// records them is stored (and, for a restart, after the deletion): pure facts first, then the publishing.
import { isCatalogued, kubernetesTime, podOfMember, ROLLING_REASONS, workloadEvent, type RollingReason, type ZookeeperRollingStatus } from '@zk-oam/apis';
import { warningOnNews, type EventDetails, type KubeObject } from '@zk-oam/runtime';
import { storedHandover, type PodToDelete } from '../plan/index.js';
import type { RollingReconcilerDependencies } from './dependencies.js';
import { READY_CONDITION_TYPE } from './status.js';
import type { RollingVerdict } from './verdict.js';

type NatsFact =
  | { readonly type: 'RollingStepStarted' | 'RollingStepCompleted'; readonly data: { pod: string; leader: boolean } }
  | { readonly type: 'RollingBlocked'; readonly data: { reason: string; message: string } }
  | { readonly type: 'RollingCompleted'; readonly data: Record<string, never> };

export interface Fact {
  readonly kubernetes: EventDetails<RollingReason>;
  readonly nats: NatsFact | undefined;
}

/** Ready newly False for these reasons is a Warning, with the action that could not go on. */
const READY_WARNINGS = { InvalidSpec: 'Validate', DisruptionLockLost: 'Lock' } as const satisfies Partial<Record<RollingReason, string>>;

/**
 * What happened between the stored and the next status; `deleted`: the pods this reconcile deleted. A handover's
 * facts come from what was observed, not from the reconfig's answer, which removing the leader often loses.
 */
export function factsOf(
  verdict: RollingVerdict,
  stored: ZookeeperRollingStatus | undefined,
  next: ZookeeperRollingStatus,
  deleted: readonly PodToDelete[],
): Fact[] {
  return [
    ...completedSteps(stored, next),
    ...handoverFacts(verdict, stored, next, deleted),
    ...deleted.map((pod) => started(pod, next)),
    ...phaseFacts(verdict, stored, next),
    ...readyWarning(stored, next),
  ];
}

/** Ready newly saying what a person must hear of at once, outside a Blocked phase (phaseFacts warns of that). */
function readyWarning(stored: ZookeeperRollingStatus | undefined, next: ZookeeperRollingStatus): Fact[] {
  const warning = warningOnNews(stored?.conditions, next.conditions, READY_CONDITION_TYPE, READY_WARNINGS);
  return warning === undefined ? [] : [{ kubernetes: warning, nats: undefined }];
}

/** Handed over: its pod deleted while a handover is recorded (another voter leads by then). Restored: the record goes with the member a voter again. */
function handoverFacts(verdict: RollingVerdict, stored: ZookeeperRollingStatus | undefined, next: ZookeeperRollingStatus, deleted: readonly PodToDelete[]): Fact[] {
  if (verdict.kind !== 'Planned') return [];
  const { ensemble, statefulSet } = verdict;
  const handing = next.handover;
  if (handing !== undefined && deleted.some((pod) => pod.name === handing.pod)) {
    const successor = ensemble.leader === undefined ? 'another voter' : `${podOfMember(statefulSet.name, ensemble.leader)} (member ${String(ensemble.leader)})`;
    const note =
      `Leader ${handing.pod} left the voters by reconfig and ${successor} leads without an election; ` +
      `${handing.pod} restarts as a non-voter and goes back in once synced (${String(ensemble.voters.length)} voters meanwhile)`;
    return [{ kubernetes: { type: 'Normal', reason: 'LeaderHandedOver', action: 'Reconfigure', note }, nats: undefined }];
  }
  const finished = handing === undefined ? storedHandover(stored) : undefined;
  if (finished === undefined || !ensemble.voters.includes(finished.server.id)) return [];
  const note = `Pod ${finished.pod} (member ${String(finished.server.id)}) is back and synced, and a voter again: the leader handover is over`;
  return [{ kubernetes: { type: 'Normal', reason: 'VoterRestored', action: 'Reconfigure', note }, nats: undefined }];
}

function completedSteps(stored: ZookeeperRollingStatus | undefined, next: ZookeeperRollingStatus): Fact[] {
  if (stored?.currentPod === undefined || stored.currentPod === next.currentPod) return [];
  // The leader goes alone and last: a step finishing after the leader was restarted is the leader's.
  const leader = stored.leaderRestarted === true;
  return stored.currentPod.split(', ').map((pod) => ({
    kubernetes: { type: 'Normal', reason: 'PodRestarted', action: 'RestartPod', note: `Pod ${pod} is back, in the quorum and synced${leader ? ' (it led before its restart)' : ''}` },
    nats: { type: 'RollingStepCompleted', data: { pod, leader } },
  }));
}

function started(pod: PodToDelete, next: ZookeeperRollingStatus): Fact {
  const role = pod.leader ? 'the leader, last' : 'a follower';
  return {
    kubernetes: { type: 'Normal', reason: 'RestartingPod', action: 'DeletePod', note: `Deleted pod ${pod.name} (${role}) to restart it at revision ${next.targetRevision ?? 'unknown'}` },
    nats: { type: 'RollingStepStarted', data: { pod: pod.name, leader: pod.leader } },
  };
}

function phaseFacts(verdict: RollingVerdict, stored: ZookeeperRollingStatus | undefined, next: ZookeeperRollingStatus): Fact[] {
  if (next.phase === 'Blocked') return blockedFacts(verdict, stored, next);
  if (next.phase === 'Completed' && stored?.phase !== 'Completed') {
    const note = `Every pod restarted at revision ${next.targetRevision ?? 'unknown'}, the leader last`;
    return [{ kubernetes: { type: 'Normal', reason: 'RollingCompleted', action: 'Roll', note }, nats: { type: 'RollingCompleted', data: {} } }];
  }
  if (verdict.kind === 'Planned' && verdict.plan.step.kind === 'RecordRestartRequest') {
    const note = `Restart trigger ${verdict.plan.step.trigger} recorded: every pod created before ${kubernetesTime(verdict.plan.step.at)} restarts`;
    return [{ kubernetes: { type: 'Normal', reason: 'RestartRequested', action: 'Roll', note }, nats: undefined }];
  }
  return [];
}

/** Newly Blocked, or Blocked for another reason: a Warning (and RollingBlocked, unless the trait is not even bound). */
function blockedFacts(verdict: RollingVerdict, stored: ZookeeperRollingStatus | undefined, next: ZookeeperRollingStatus): Fact[] {
  const waiting = next.conditions?.find((condition) => condition.type === 'Waiting');
  const storedWaiting = stored?.conditions?.find((condition) => condition.type === 'Waiting');
  if (waiting === undefined || (stored?.phase === 'Blocked' && storedWaiting?.reason === waiting.reason)) return [];
  // nextStatus sets the Waiting reason from the catalog only; this narrows it back to the catalog's type.
  if (!isCatalogued(ROLLING_REASONS, waiting.reason)) return [];
  return [
    {
      kubernetes: { type: 'Warning', reason: waiting.reason, action: 'Wait', note: waiting.message.slice(0, 1000) },
      nats: verdict.kind === 'Unbound' ? undefined : { type: 'RollingBlocked', data: { reason: waiting.reason, message: waiting.message } },
    },
  ];
}

/** Events about the trait; NATS events about the workload it acts on, so one subject hierarchy covers an ensemble. */
export async function announce(
  deps: Pick<RollingReconcilerDependencies, 'recorder' | 'bus' | 'source' | 'now'>,
  trait: KubeObject,
  workload: { name: string; uid: string | undefined } | undefined,
  facts: readonly Fact[],
): Promise<void> {
  for (const fact of facts) {
    await deps.recorder.record(trait, fact.kubernetes);
    if (fact.nats !== undefined && workload !== undefined) await deps.bus.publish(workloadEvent(fact.nats, { ...workload, namespace: trait.metadata.namespace ?? '' }, { source: deps.source, time: deps.now() }));
  }
}
