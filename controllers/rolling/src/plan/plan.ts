// The rolling planner: from observed state only, the next step of a leader-aware rolling restart.
import { kubernetesTime } from '@zk-oam/apis';
import { chooseBatch } from './batch.js';
import { continueHandover, handoverOf, recordOf, storedHandover } from './handover.js';
import type { RollingPlanInput } from './input.js';
import { rollMembers, type RollMember } from './members.js';
import { recordedRestartRequest, restartRequestTime, unrecordedTrigger, type RestartRequest } from './restart-request.js';
import type { RollingPlan, RollingStep, RollProgress } from './step.js';
import { waitFor, waitStartedAt } from './wait-clock.js';

/** Before the target is known, nothing is counted as updated or pending. */
function noProgress(): RollProgress {
  return { updated: [], pending: [] };
}

/**
 * Pure: the same input gives the same plan, so a controller killed anywhere resumes by planning again. Nothing is
 * remembered between calls except what the trait's status records (restart request, Waiting condition, completion,
 * a handover under way). Order of questions: record a new trigger; know the target; finish a handover under way, even
 * paused; let a paused roll rest; wait for every member to be up and the ensemble healthy; stop when nothing is left;
 * wait for OnDelete; delete the next batch, or hand the leader's leadership over.
 */
export function planRollingStep(input: RollingPlanInput): RollingPlan {
  const { spec, statefulSet, now } = input;
  const trigger = unrecordedTrigger(input);
  if (trigger !== undefined) {
    return { step: { kind: 'RecordRestartRequest', trigger, at: restartRequestTime(now) }, progress: noProgress() };
  }
  const updateRevision = statefulSet.updateRevision;
  if (updateRevision === undefined) {
    const step = waitFor(input, 'NoUpdateRevision', `StatefulSet ${statefulSet.name} has no update revision yet`);
    return { step, progress: noProgress() };
  }
  const request = recordedRestartRequest(input);
  const members = rollMembers(input, updateRevision, request);
  const progress = progressOf(members);
  const plan = (step: RollingStep): RollingPlan => ({ step, progress });

  if (request !== undefined && now.getTime() < request.at.getTime()) {
    return plan(waitFor(input, 'RestartRequestSettling', `restart request ${request.trigger} takes effect at ${kubernetesTime(request.at)}`));
  }
  const record = storedHandover(input.status);
  const handoverStep = record === undefined ? undefined : continueHandover(input, members, record);
  if (handoverStep !== undefined) return { step: handoverStep, progress, handover: record };
  const down = members.flatMap((member) => (member.state.up ? [] : [{ ...member, state: member.state }]));
  const ourPodOnItsWayBack = down.some((member) => !member.needsRestart);
  if (spec.paused && progress.pending.length > 0 && !ourPodOnItsWayBack) {
    return plan({ kind: 'Paused', pending: progress.pending });
  }
  if (progress.pending.length === 0 && completedForTarget(input, updateRevision, request)) {
    return plan({ kind: 'Done' });
  }
  const firstDown = down[0];
  if (firstDown !== undefined) {
    const others = down.length > 1 ? ` (${down.length} members down: ${down.map((member) => member.podName).join(', ')})` : '';
    return plan(waitFor(input, firstDown.state.reason, `${firstDown.state.message}${others}`, firstDown.state.since));
  }
  const step = nextBatch(input, members, progress);
  return { step, progress, handover: step.kind === 'HandOverLeadership' ? recordOf(step, now) : undefined };
}

/** Every member is up: stop when nothing is left, wait for an unhealthy ensemble or for OnDelete, else the next batch. */
function nextBatch(input: RollingPlanInput, members: readonly RollMember[], progress: RollProgress): RollingStep {
  const { spec, statefulSet, ensemble, now } = input;
  if (!ensemble.health.ok) {
    return waitFor(input, 'EnsembleUnhealthy', `ensemble is not healthy: ${ensemble.health.reason}`);
  }
  if (progress.pending.length === 0) {
    return { kind: 'Done' };
  }
  if (!statefulSet.onDelete) {
    return waitFor(input, 'StatefulSetNotOnDelete', `StatefulSet ${statefulSet.name} does not use the OnDelete update strategy yet`);
  }
  const batch = chooseBatch(members, ensemble, spec.maxUnavailable);
  if (!batch.ok) {
    const since = waitStartedAt('NoQuorumMargin', undefined, input.status, now);
    return { kind: 'Blocked', reason: 'NoQuorumMargin', message: batch.message, since };
  }
  const [first, ...others] = batch.pods;
  const handover = first.leader && others.length === 0 ? handoverOf(input, first) : undefined;
  return handover ?? { kind: 'DeletePods', pods: batch.pods };
}

/**
 * Completion is sticky for one target: once status says Completed for this update revision, after the restart request
 * in force (and no pod needs a restart), a member failing later is the workload's concern, not a reason to reopen the roll.
 */
function completedForTarget(input: RollingPlanInput, updateRevision: string, request: RestartRequest | undefined): boolean {
  const status = input.status;
  if (status?.phase !== 'Completed' || status.targetRevision !== updateRevision) {
    return false;
  }
  const completedAt = status.completedAt === undefined ? Number.NaN : new Date(status.completedAt).getTime();
  return request === undefined || completedAt >= request.at.getTime();
}

function progressOf(members: readonly RollMember[]): RollProgress {
  return {
    updated: members.filter((member) => !member.needsRestart).map((member) => member.podName),
    pending: members.filter((member) => member.needsRestart).map((member) => member.podName),
  };
}
