// Which pods need a restart: an outdated revision, or creation before the recorded restart request.
import type { PodView, RollingPlanInput } from './input.js';

export interface RestartRequest {
  trigger: string;
  /** Whole second: pods created before it predate the request. */
  at: Date;
}

/**
 * The request in force: spec.restartTrigger as recorded in status with its time. Undefined when the spec sets no
 * trigger (removing it mid-roll stops restarting pods for it) or when it is not recorded yet (see unrecordedTrigger).
 */
export function recordedRestartRequest(input: Pick<RollingPlanInput, 'spec' | 'status'>): RestartRequest | undefined {
  const trigger = input.spec.restartTrigger;
  const at = recordedTime(input.status?.restartRequestedAt);
  if (trigger === undefined || input.status?.observedRestartTrigger !== trigger || at === undefined) {
    return undefined;
  }
  return { trigger, at };
}

/**
 * A trigger the status has not recorded with a time: it must be recorded before anything else. A trait created with a
 * trigger counts as a change, so it restarts the pods that exist when it is first seen.
 */
export function unrecordedTrigger(input: Pick<RollingPlanInput, 'spec' | 'status'>): string | undefined {
  const trigger = input.spec.restartTrigger;
  return trigger !== undefined && recordedRestartRequest(input) === undefined ? trigger : undefined;
}

/**
 * creationTimestamp has whole seconds, so the request time is rounded up to the next second and no pod is deleted
 * before it (RestartRequestSettling): every pod older than the request then has an earlier timestamp, every
 * replacement a later or equal one, and none is restarted twice.
 */
export function restartRequestTime(now: Date): Date {
  return new Date(Math.ceil(now.getTime() / 1000) * 1000);
}

export function needsRestart(pod: PodView, updateRevision: string, request: RestartRequest | undefined): boolean {
  return pod.revision !== updateRevision || (request !== undefined && pod.createdAt.getTime() < request.at.getTime());
}

function recordedTime(text: string | undefined): Date | undefined {
  if (text === undefined) {
    return undefined;
  }
  const time = new Date(text);
  return Number.isNaN(time.getTime()) ? undefined : time;
}
