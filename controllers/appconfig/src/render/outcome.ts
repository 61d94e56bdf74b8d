// What rendering produces for one workload or trait: an object to apply, or a problem a person must fix; pure data.
import type { TypedReference } from '@zk-oam/apis';
import type { ApplyConfiguration, ResourceType } from '@zk-oam/runtime';

/** Why something was not rendered; each is a condition reason and an Event reason. */
export type RenderProblemReason =
  | 'ComponentNotFound'
  | 'InvalidParameter'
  | 'KindNotServed'
  | 'WorkloadDefinitionNotFound'
  | 'TraitDefinitionNotFound'
  | 'TraitNotApplicable'
  | 'InvalidTrait'
  | 'DuplicateObject'
  | 'DataOutputNotFound'
  | 'ScopeDefinitionNotFound';

export interface RenderedObject {
  readonly kind: 'rendered';
  readonly ref: TypedReference;
  readonly resource: ResourceType;
  /** The whole object as this controller applies it: every field it sets, nothing else. */
  readonly object: ApplyConfiguration;
}

export interface RenderProblem {
  readonly kind: 'problem';
  /** What would have been rendered, when known that far. */
  readonly ref: TypedReference | undefined;
  readonly reason: RenderProblemReason;
  readonly message: string;
}

export type RenderOutcome = RenderedObject | RenderProblem;

/** A scope a component is in: where the scope lists its workloads, from the scope kind's ScopeDefinition. */
export interface ScopeMembership {
  readonly kind: 'scope';
  readonly ref: TypedReference;
  readonly resource: ResourceType;
  /** Undefined when the ScopeDefinition has no workloadRefsPath: such a scope is not told of its workloads. */
  readonly workloadRefsPath: string | undefined;
}

export type ScopeOutcome = ScopeMembership | RenderProblem;

export interface RenderedComponent {
  readonly componentName: string;
  /** The Component revision rendered, also the `app.oam.dev/revision` label; undefined when the Component is missing. */
  readonly revision: string | undefined;
  /** Each revision has a workload of its own (a trait's definition is revisionEnabled); earlier ones are kept. */
  readonly revisionEnabled: boolean;
  readonly workload: RenderOutcome;
  /** Empty when the workload itself could not be rendered: a trait needs the workload it points to. */
  readonly traits: readonly RenderOutcome[];
  /** The scopes the workload is in; empty when the workload could not be rendered. */
  readonly scopes: readonly ScopeOutcome[];
}

export function problem(reason: RenderProblemReason, message: string, ref?: TypedReference): RenderProblem {
  return { kind: 'problem', ref, reason, message };
}
