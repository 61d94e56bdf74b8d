// Component revisions: the pure plan, the ControllerRevisions read from the cache, and the reconcile that writes them.
export { DEFAULT_REVISION_LIMIT, isRevisionNameOf, REVISION_COMPONENT_LABEL } from './plan.js';
export { componentRevisionReconciler, type ComponentRevisionDependencies } from './reconcile.js';
export { pinnedRevisions, revisionComponents } from './stored.js';
