// The Events a person reads: one per object created, updated or deleted, and a Warning per problem when the Synced
// condition's message is news.
import type { TypedReference } from '@zk-oam/apis';
import type { KubeObject } from '@zk-oam/runtime';
import type { AppliedObject } from './apply-rendered.js';
import type { AppConfigReconcilerDependencies } from './dependencies.js';
import { SYNCED_CONDITION, type ApplicationConfigurationStatus, type Problem } from './status.js';

type Deps = Pick<AppConfigReconcilerDependencies, 'recorder'>;

function syncedMessage(status: ApplicationConfigurationStatus | undefined): string | undefined {
  return status?.conditions?.find((condition) => condition.type === SYNCED_CONDITION)?.message;
}

export async function recordProblems(
  deps: Deps,
  raw: KubeObject,
  problems: readonly Problem[],
  stored: ApplicationConfigurationStatus | undefined,
  next: ApplicationConfigurationStatus,
): Promise<void> {
  if (problems.length === 0 || syncedMessage(stored) === syncedMessage(next)) return;
  for (const problem of problems) await deps.recorder.record(raw, { type: 'Warning', reason: problem.reason, action: 'Render', note: problem.message });
}

export async function recordChanges(deps: Deps, raw: KubeObject, applied: readonly AppliedObject[], deleted: readonly TypedReference[]): Promise<string[]> {
  const notes: string[] = [];
  for (const { ref, result } of applied) {
    if (result.kind !== 'applied' || result.verb === 'Unchanged') continue;
    const note = `${result.verb} ${ref.kind} ${ref.name}`;
    notes.push(note);
    await deps.recorder.record(raw, { type: 'Normal', reason: result.verb, action: 'Apply', note });
  }
  for (const ref of deleted) {
    const note = `Deleted ${ref.kind} ${ref.name} (no longer in the spec)`;
    notes.push(note);
    await deps.recorder.record(raw, { type: 'Normal', reason: 'Deleted', action: 'Prune', note });
  }
  return notes;
}
