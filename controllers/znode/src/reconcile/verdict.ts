// What one reconcile concluded (pure): the path to serve on a workload, or why not; and after serving, what was done.
// The status, its Events and the next look are all derived from the finding.
import type { ZnodeReason, ZookeeperWorkload } from '@zk-oam/apis';
import type { InvalidTraitVerdict } from '@zk-oam/runtime';
import type { PathClaim, TenantPrincipal } from '../plan/index.js';
import type { Connection } from '../render/index.js';
import type { MemberView } from './observe.js';

export type WaitReason = Extract<ZnodeReason, 'WorkloadNotFound' | 'WorkloadDeleting' | 'WorkloadInvalid' | 'WorkloadNotServing'>;

export type ZnodeVerdict =
  /** The znode's spec does not validate: nothing is done, and the status keeps all it recorded. */
  | InvalidTraitVerdict
  /** Nothing can be done for now: no workload to serve the path on, or no member to reach. */
  | { readonly kind: 'Waiting'; readonly reason: WaitReason; readonly message: string }
  /**
   * The workload, in another namespace, does not admit the znode's, or the znode's principal does not fit how the
   * workload authenticates clients: nothing is created or written for it.
   */
  | { readonly kind: 'Refused'; readonly reason: Extract<ZnodeReason, 'WorkloadNotShared' | 'PrincipalMismatch'>; readonly message: string }
  /** An earlier znode claims the path: nothing is created, written or deleted for this one. */
  | { readonly kind: 'Conflict'; readonly claim: PathClaim; readonly message: string }
  | ServeVerdict;

export interface ServeVerdict {
  readonly kind: 'Serve';
  readonly path: string;
  readonly workload: ZookeeperWorkload;
  /** Every member pod: the ready ones serve the admin session, and all must know a tenant's user. */
  readonly members: readonly MemberView[];
  readonly principal: Exclude<TenantPrincipal, { kind: 'mismatch' }>;
}

/** The path served, and whether every member knows the tenant's principal yet. */
export interface ServedFinding {
  readonly kind: 'Served';
  readonly path: string;
  readonly connection: Connection;
  /** The path's ACL id: `sasl:<user>` or `x509:<subject>`; undefined when the path is open. */
  readonly principal: string | undefined;
  /** Why the tenant cannot log in yet (members restarting onto its user); undefined when it can. */
  readonly pending: string | undefined;
}

/** A deleted znode waiting for its workload before its finalizer goes. */
export interface DeletingFinding {
  readonly kind: 'Deleting';
  readonly message: string;
}

/** A verdict as the status reads it. */
export type Finding = Exclude<ZnodeVerdict, ServeVerdict> | ServedFinding | DeletingFinding;
