// The znode reconcile and what main.ts wires it with.
export type { ZnodeCaches, ZnodeReconcilerDependencies, ZnodeTiming } from './dependencies.js';
export { znodeKeysOfWorkload } from './observe.js';
export { reconcileZnode, znodeReconciler } from './reconcile.js';
export { CACHED_FIELDS, IDENTITY, watchedResources, workloadResource, ZNODE_FINALIZER, ZNODE_STATUS, znodeResource } from './resources.js';
