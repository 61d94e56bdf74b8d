// Step: the earlier revisions' workloads of revisionEnabled components (v0.3.3's status.historyWorkloads), kept while
// they exist: a rollout trait deletes them once traffic has moved. Which ones to look for is pure; looking is a GET each.
import type { ApplicationConfiguration, TypedReference } from '@zk-oam/apis';
import { apiVersionOf, type KubeClient, type ResourceType } from '@zk-oam/runtime';
import type { RenderedComponent } from '../render/outcome.js';
import { isRevisionNameOf } from '../revisions/index.js';
import { readLiveObject } from './read-live.js';
import { refKey } from './refs.js';
import type { ApplicationConfigurationStatus } from './status.js';

export type HistoryWorkload = NonNullable<NonNullable<ApplicationConfiguration['status']>['historyWorkloads']>[number];

/**
 * For each revisionEnabled component rendered now, the workloads of its earlier revisions: those the previous status
 * listed as history, and its previous workload when the revision moved on. Same kind as the current workload only.
 */
export function historyCandidates(rendered: readonly RenderedComponent[], previous: ApplicationConfigurationStatus | undefined): TypedReference[] {
  const candidates = rendered.flatMap((component) => {
    if (!component.revisionEnabled || component.workload.kind !== 'rendered') return [];
    const current = component.workload.ref;
    const earlier = [
      ...(previous?.historyWorkloads ?? []).flatMap((entry) => (entry.workloadRef === undefined ? [] : [entry.workloadRef])),
      ...(previous?.workloads ?? []).flatMap((entry) => (entry.componentName === component.componentName && entry.workloadRef !== undefined ? [entry.workloadRef] : [])),
    ];
    return earlier.filter(
      (ref) => ref.apiVersion === current.apiVersion && ref.kind === current.kind && ref.name !== current.name && isRevisionNameOf(component.componentName, ref.name),
    );
  });
  return [...new Map(candidates.map((ref) => [refKey(ref), { apiVersion: ref.apiVersion, kind: ref.kind, name: ref.name }] as const)).values()];
}

/** The candidates that still exist, with their uid; a kind no longer served has none. */
export async function observeHistory(client: KubeClient, candidates: readonly TypedReference[], namespace: string, resources: readonly ResourceType[]): Promise<HistoryWorkload[]> {
  const found: HistoryWorkload[] = [];
  for (const ref of candidates) {
    const resource = resources.find((candidate) => apiVersionOf(candidate) === ref.apiVersion && candidate.kind === ref.kind);
    if (resource === undefined) continue;
    const live = await readLiveObject(client, resource, { namespace, name: ref.name });
    if (live !== undefined) found.push({ revision: ref.name, workloadRef: { ...ref, ...(live.metadata.uid === undefined ? {} : { uid: live.metadata.uid }) } });
  }
  return found;
}
