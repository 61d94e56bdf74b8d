// The object lock's Lease bodies: pure builders for create, hold (acquire/renew/takeover) and release.
import { microTime } from '../kube/micro-time.js';
import type { OwnerReference } from '../kube/object.js';
import type { Lease, LeaseSpec } from '../leader/lease.js';

/** Annotation on the Lease saying what the holder is doing, for people reading `kubectl get lease -o yaml`. */
export const lockOperationAnnotation = 'runtime.zkoam.dev/lock-operation';

/** The locked object, by its identity: the Lease is owned by (and garbage-collected with) exactly this object. */
export interface LockOwner {
  readonly apiVersion: string;
  readonly kind: string;
  readonly name: string;
  readonly uid: string;
}

export interface HoldRequest {
  readonly holder: string;
  readonly durationSeconds: number;
  /** Free text for the annotation, e.g. "scale 3 -> 5: adding zk-3". */
  readonly operation: string;
  readonly now: number;
}

/**
 * The owner references with `owner` added unless its uid is already there. Others are kept: if the object
 * was recreated under the same name, the garbage collector prunes the dead reference, and a caller with a
 * stale uid cannot get a live lock collected.
 */
export function withOwner(references: readonly OwnerReference[] | undefined, owner: LockOwner): OwnerReference[] {
  const existing = references ?? [];
  if (existing.some((reference) => reference.uid === owner.uid)) return [...existing];
  return [...existing, { apiVersion: owner.apiVersion, kind: owner.kind, name: owner.name, uid: owner.uid }];
}

/** A new Lease `name`, held by the caller. */
export function createdLease(lease: { readonly namespace: string; readonly name: string }, owner: LockOwner, request: HoldRequest): Lease {
  return {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: {
      name: lease.name,
      namespace: lease.namespace,
      ownerReferences: withOwner([], owner),
      annotations: { [lockOperationAnnotation]: request.operation },
    },
    spec: {
      holderIdentity: request.holder,
      leaseDurationSeconds: request.durationSeconds,
      acquireTime: microTime(request.now),
      renewTime: microTime(request.now),
      leaseTransitions: 0,
    },
  };
}

/** `lease` held by the caller: a renewal keeps the acquire time; a new holder gets a new one and counts a transition (as client-go does). */
export function heldLease(lease: Lease, owner: LockOwner, request: HoldRequest): Lease {
  const spec: LeaseSpec = lease.spec ?? {};
  const newHolder = spec.holderIdentity !== request.holder;
  return {
    ...lease,
    metadata: {
      ...lease.metadata,
      ownerReferences: withOwner(lease.metadata.ownerReferences, owner),
      annotations: { ...lease.metadata.annotations, [lockOperationAnnotation]: request.operation },
    },
    spec: {
      ...spec,
      holderIdentity: request.holder,
      leaseDurationSeconds: request.durationSeconds,
      acquireTime: newHolder ? microTime(request.now) : spec.acquireTime,
      renewTime: microTime(request.now),
      leaseTransitions: (spec.leaseTransitions ?? 0) + (newHolder ? 1 : 0),
    },
  };
}

/** `lease` renewed by its holder as it stands: same holder, duration and operation, a new renew time. */
export function renewedLease(lease: Lease, owner: LockOwner, now: number): Lease {
  return {
    ...lease,
    metadata: { ...lease.metadata, ownerReferences: withOwner(lease.metadata.ownerReferences, owner) },
    spec: { ...lease.spec, renewTime: microTime(now) },
  };
}

/** `lease` with nobody holding it; the object and its history (transitions) stay. */
export function releasedLease(lease: Lease): Lease {
  const { [lockOperationAnnotation]: _released, ...annotations } = lease.metadata.annotations ?? {};
  const { holderIdentity: _holder, acquireTime: _acquired, ...spec } = lease.spec ?? {};
  return { ...lease, metadata: { ...lease.metadata, annotations }, spec };
}
