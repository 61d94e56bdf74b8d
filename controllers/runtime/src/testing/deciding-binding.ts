// A trait binding for a trait controller's unit tests: the kit's own decision (decideBinding), without its writes, so
// a test sees the reasons and messages a cluster would.
import type { ResourceType } from '../kube/resource.js';
import { decideBinding } from '../trait/binding-decision.js';
import type { TraitBinding } from '../trait/trait-binding.js';

export function decidingBinding(options: { workloadResource: ResourceType; bindingAnnotation: string }): Pick<TraitBinding, 'bind' | 'needsUnbind' | 'unbind'> {
  const { workloadResource, bindingAnnotation } = options;
  return {
    bind: (trait, reference, workload) => Promise.resolve({ ...decideBinding({ reference, workloadResource, workload, bindingAnnotation, traitName: trait.metadata.name }), wrote: [] }),
    needsUnbind: () => false,
    unbind: () => Promise.resolve(),
  };
}
