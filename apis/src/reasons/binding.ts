// Reasons of a trait that cannot bind to the workload its spec.workloadRef names; shared by the scale and rolling traits.
import { reasonCatalog } from './entry.js';

const SHOWN = ['Ready', 'Blocked or Bound', 'Warning Event'] as const;

export const TRAIT_BINDING_REASONS = reasonCatalog({
  WorkloadKindUnsupported: {
    shownIn: SHOWN,
    means: 'spec.workloadRef names a kind other than ZookeeperWorkload; the trait applies to ZookeeperWorkloads only.',
    todo: 'Recreate the trait with a workloadRef to a ZookeeperWorkload (workloadRef is immutable).',
  },
  WorkloadNotFound: {
    shownIn: SHOWN,
    means: 'No ZookeeperWorkload of that name exists in the trait\'s namespace. The trait waits and binds when it appears.',
    todo: 'Check the name in spec.workloadRef and the namespace; create the workload, or delete the trait.',
  },
  WorkloadDeleting: {
    shownIn: SHOWN,
    means: 'The workload is being deleted; the trait does nothing to it any more.',
    todo: 'Nothing, or delete the trait too.',
  },
  WorkloadBoundToOtherTrait: {
    shownIn: SHOWN,
    means: 'Another trait of the same kind is bound to the workload (its annotation names it); one per workload.',
    todo: 'Delete one of the two traits; the other binds on its next reconcile.',
  },
});
export type TraitBindingReason = keyof typeof TRAIT_BINDING_REASONS;
