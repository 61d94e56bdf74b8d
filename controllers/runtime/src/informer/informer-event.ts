// What an informer tells its listeners. Updates with an unchanged resourceVersion are never sent.
import type { KubeObject } from '../kube/object.js';

export type InformerEvent<T extends KubeObject> =
  | { readonly type: 'added'; readonly object: T }
  | { readonly type: 'updated'; readonly object: T; readonly old: T }
  | { readonly type: 'deleted'; readonly object: T }
  /** The periodic resync: the cached object, unchanged, so level-based controllers look again. */
  | { readonly type: 'resynced'; readonly object: T };

export type InformerListener<T extends KubeObject> = (event: InformerEvent<T>) => void;

/** The restart reasons counted in informer_watch_restarts_total. */
export type WatchRestartReason = 'closed' | 'expired' | 'error' | 'stalled';
