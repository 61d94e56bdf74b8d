// The ApplicationConfiguration's status as OAM defines it (Synced condition, workloads[] with their traits), from
// what was rendered and applied; pure. A component whose workload could not be rendered keeps the references of
// what it rendered before, so those objects are neither forgotten nor pruned while the problem lasts.
import type { AppConfigReason, ApplicationConfiguration, ApplicationWorkloadStatus, TypedReference } from '@zk-oam/apis';
import { observedGeneration, setCondition } from '@zk-oam/runtime';
import type { RenderedComponent, RenderOutcome, ScopeOutcome } from '../render/outcome.js';
import type { ApplyResult } from './apply-rendered.js';
import type { UnsatisfiedDependency } from '../dependencies/resolve.js';
import type { HistoryWorkload } from './history.js';
import { refKey } from './refs.js';
import { entryKey, type ScopeResult } from './scopes.js';

export type ApplicationConfigurationStatus = NonNullable<ApplicationConfiguration['status']>;
type TraitStatus = NonNullable<ApplicationWorkloadStatus['traits']>[number];

export const SYNCED_CONDITION = 'Synced';
export const SYNCED_REASON: AppConfigReason = 'ReconcileSuccess';

export interface Problem {
  /** The Synced condition's and the Warning Event's reason, one docs/troubleshooting.md explains. */
  readonly reason: AppConfigReason;
  readonly message: string;
}

export interface StatusInput {
  readonly rendered: readonly RenderedComponent[];
  /** Apply results by refKey, for every rendered object. */
  readonly applied: ReadonlyMap<string, ApplyResult>;
  readonly previous: ApplicationConfigurationStatus | undefined;
  /** Earlier revisions' workloads of revisionEnabled components that still exist. */
  readonly history: readonly HistoryWorkload[];
  /** Data inputs not ready yet, whose objects are held back. */
  readonly unsatisfied: readonly UnsatisfiedDependency[];
  /** What telling each scope of its workload gave, by entryKey. */
  readonly scopes: ReadonlyMap<string, ScopeResult>;
  readonly generation: number | undefined;
  readonly now: Date;
}

/** What went wrong with one rendered or failed object, if anything. */
function problemOf(outcome: RenderOutcome, applied: ReadonlyMap<string, ApplyResult>): Problem | undefined {
  if (outcome.kind === 'problem') return { reason: outcome.reason, message: outcome.message };
  const result = applied.get(refKey(outcome.ref));
  return result?.kind === 'refused' ? { reason: result.reason, message: result.message } : undefined;
}

/** What we say of a trait; `error` and `applied` are ours, any other value was written by the trait's own controller. */
const OUR_TRAIT_STATUSES: ReadonlySet<string> = new Set(['applied', 'error']);

const sameRef = (a: TypedReference, b: TypedReference): boolean => a.apiVersion === b.apiVersion && a.kind === b.kind && a.name === b.name;

/**
 * `error` with the message while we cannot apply the trait; otherwise what another controller wrote in its status,
 * kept as oam-kubernetes-runtime keeps it, or `applied` until one does.
 */
function traitStatus(outcome: RenderOutcome, applied: ReadonlyMap<string, ApplyResult>, before: readonly TraitStatus[]): TraitStatus[] {
  const ref = outcome.ref;
  if (ref === undefined) return [];
  const found = problemOf(outcome, applied);
  if (found !== undefined) return [{ traitRef: ref, status: 'error', message: found.message }];
  const written = before.find((entry) => sameRef(entry.traitRef, ref))?.status;
  return [{ traitRef: ref, status: written !== undefined && written !== '' && !OUR_TRAIT_STATUSES.has(written) ? written : 'applied' }];
}

/** What went wrong putting the component's workload in one of its scopes, if anything. */
function scopeProblemOf(scope: ScopeOutcome, workload: RenderOutcome, told: ReadonlyMap<string, ScopeResult>): Problem | undefined {
  if (scope.kind === 'problem') return { reason: scope.reason, message: scope.message };
  if (workload.kind !== 'rendered') return undefined;
  const result = told.get(entryKey({ workload: workload.ref, scope: scope.ref }));
  return result?.kind === 'refused' ? { reason: result.reason, message: result.message } : undefined;
}

function scopeStatus(component: RenderedComponent): Pick<ApplicationWorkloadStatus, 'scopes'> {
  const scopes = component.scopes.flatMap((scope) => (scope.ref === undefined ? [] : [{ scopeRef: scope.ref }]));
  return scopes.length === 0 ? {} : { scopes };
}

function workloadStatus(component: RenderedComponent, input: StatusInput): ApplicationWorkloadStatus {
  const { workload } = component;
  const before = input.previous?.workloads?.find(
    (entry) => entry.componentName === component.componentName && entry.componentRevisionName === component.revision,
  );
  if (workload.kind === 'problem') {
    return before ?? input.previous?.workloads?.find((entry) => entry.componentName === component.componentName) ?? { componentName: component.componentName };
  }
  const workloadRef: TypedReference = workload.ref;
  return {
    // Written by another controller (a health scope, say) for this revision of the component; never by us.
    ...(before?.status === undefined || before.status === '' ? {} : { status: before.status }),
    componentName: component.componentName,
    ...(component.revision === undefined ? {} : { componentRevisionName: component.revision }),
    workloadRef,
    traits: component.traits.flatMap((trait) => traitStatus(trait, input.applied, before?.traits ?? [])),
    ...scopeStatus(component),
  };
}

export function problemsOf(input: Pick<StatusInput, 'rendered' | 'applied' | 'scopes'>): Problem[] {
  return input.rendered.flatMap((component) => [
    ...[component.workload, ...component.traits].flatMap((outcome) => problemOf(outcome, input.applied) ?? []),
    ...component.scopes.flatMap((scope) => scopeProblemOf(scope, component.workload, input.scopes) ?? []),
  ]);
}

/** The conditions with Synced set from `problems` (the first one's reason, every message), by the kit's setCondition. */
export function withSynced(
  problems: readonly Problem[],
  context: Pick<StatusInput, 'previous' | 'generation' | 'now'>,
): Pick<ApplicationConfigurationStatus, 'observedGeneration' | 'conditions' | 'status'> {
  const first = problems[0];
  const synced = {
    type: SYNCED_CONDITION,
    status: first === undefined ? 'True' : 'False',
    reason: first?.reason ?? SYNCED_REASON,
    message: first === undefined ? 'every workload and trait is applied' : problems.map((problem) => problem.message).join('; '),
  } as const;
  return {
    ...observedGeneration(context),
    conditions: setCondition(context.previous?.conditions, synced, context),
    status: problems.length === 0 ? 'running' : 'error',
  };
}

export function nextStatus(input: StatusInput): { status: ApplicationConfigurationStatus; problems: Problem[] } {
  const problems = problemsOf(input);
  const workloads = input.rendered.map((component) => workloadStatus(component, input));
  return {
    problems,
    status: {
      ...withSynced(problems, input),
      workloads,
      ...(input.unsatisfied.length === 0 ? {} : { dependency: { unsatisfied: [...input.unsatisfied] } }),
      ...(input.history.length === 0 ? {} : { historyWorkloads: [...input.history] }),
    },
  };
}

/** Every object the status says this ApplicationConfiguration rendered, earlier revisions' workloads included. */
export function referencedObjects(status: ApplicationConfigurationStatus | undefined): TypedReference[] {
  return [
    ...(status?.workloads ?? []).flatMap((entry) => [
      ...(entry.workloadRef === undefined ? [] : [entry.workloadRef]),
      ...(entry.traits ?? []).map((trait) => trait.traitRef),
    ]),
    ...(status?.historyWorkloads ?? []).flatMap((entry) => (entry.workloadRef === undefined ? [] : [entry.workloadRef])),
  ];
}
