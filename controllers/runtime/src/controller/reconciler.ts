// What a controller calls: key in, a result value out. A thrown error means "retry with backoff"; never both.
import type { Logger } from 'pino';
import type { ObjectKey } from '../kube/object.js';

/** The object has been reconciled ("done"), or must be looked at again after `ms` ("requeueAfter"). */
export type ReconcileResult = { readonly kind: 'done' } | { readonly kind: 'requeueAfter'; readonly ms: number };

export const done: ReconcileResult = { kind: 'done' };

export function requeueAfter(ms: number): ReconcileResult {
  return { kind: 'requeueAfter', ms };
}

export interface ReconcileContext {
  /** Carries controller, object (namespace/name) and reconcileID. */
  readonly log: Logger;
  readonly reconcileId: string;
  /** Aborted when the controller must stop (leadership lost); finish or give up promptly. */
  readonly signal: AbortSignal;
  /**
   * Whether the controller has other reconciles running or keys waiting in its queue, now: a reconcile that is alone
   * may spend an extra round trip to the API server to finish sooner, one among many shares the server with them.
   */
  readonly othersPending: () => boolean;
}

export type Reconciler = (key: ObjectKey, context: ReconcileContext) => Promise<ReconcileResult>;
