// Whether a trait may bind to the workload its reference names, decided from observed objects only (pure).
import type { TraitBindingReason } from '@zk-oam/apis';
import type { ResourceType } from '../kube/resource.js';
import type { KubeObject } from '../kube/object.js';

/** What a trait says it applies to: an object of the same namespace. */
export interface WorkloadReference {
  readonly apiVersion: string;
  readonly kind: string;
  readonly name: string;
}

/** Why a trait cannot bind; CamelCase so it can be a condition and Event reason as is (explained in apis' catalog). */
export type BindingProblemReason = TraitBindingReason;

export type BindingDecision =
  | { readonly kind: 'Bindable'; readonly workload: KubeObject }
  | { readonly kind: 'Problem'; readonly reason: BindingProblemReason; readonly message: string };

export interface BindingDecisionInput {
  readonly reference: WorkloadReference;
  /** The workload kind this trait applies to. */
  readonly workloadResource: ResourceType;
  /** The referenced workload as observed; undefined when it does not exist. */
  readonly workload: KubeObject | undefined;
  /** The workload annotation that names the bound trait of this kind. */
  readonly bindingAnnotation: string;
  readonly traitName: string;
}

function groupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
}

export function decideBinding(input: BindingDecisionInput): BindingDecision {
  const { reference, workloadResource, workload, bindingAnnotation, traitName } = input;
  if (groupOf(reference.apiVersion) !== workloadResource.group || reference.kind !== workloadResource.kind) {
    return problem(
      'WorkloadKindUnsupported',
      `workloadRef names a ${reference.kind} (${reference.apiVersion}); this trait applies to ${workloadResource.kind} ` +
        `(${workloadResource.group}) only`,
    );
  }
  if (workload === undefined) {
    return problem('WorkloadNotFound', `${workloadResource.kind} ${reference.name} does not exist in this namespace; waiting for it`);
  }
  if (workload.metadata.deletionTimestamp !== undefined) {
    return problem('WorkloadDeleting', `${workloadResource.kind} ${reference.name} is being deleted`);
  }
  const bound = workload.metadata.annotations?.[bindingAnnotation];
  if (bound !== undefined && bound !== '' && bound !== traitName) {
    return problem(
      'WorkloadBoundToOtherTrait',
      `${workloadResource.kind} ${reference.name} is already bound to ${bound} (annotation ${bindingAnnotation}); ` +
        'one trait of a kind per workload',
    );
  }
  return { kind: 'Bindable', workload };
}

function problem(reason: BindingProblemReason, message: string): BindingDecision {
  return { kind: 'Problem', reason, message };
}
