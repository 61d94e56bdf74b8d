// What deleting a znode comes to (pure): clean up (the path deleted or kept, the tenant's user removed) while its
// workload serves, or let the finalizer go without touching ZooKeeper when the workload is gone for longer than the
// bounded wait, is being deleted itself, or the path was never this znode's. A workload that no longer admits the znode's
// namespace gets its user taken back, and its path left: it may be another tenant's by now.

export type WorkloadPresence = 'present' | 'missing' | 'deleting' | 'invalid';

export type DeletionStep =
  /** Remove the tenant's user; delete the path unless `retain`; then the finalizer goes. */
  | { readonly kind: 'CleanUp'; readonly retain: boolean }
  /** The workload is missing: look again when the bounded wait ends, or sooner if it comes back. */
  | { readonly kind: 'Wait'; readonly remainingMs: number }
  /** The finalizer goes and ZooKeeper is not touched; `why` says so in a Warning Event. */
  | { readonly kind: 'Release'; readonly why: string }
  /** As Release, but the tenant's user (its own key of the users Secret) is removed first. */
  | { readonly kind: 'Revoke'; readonly why: string };

export interface DeletionInput {
  readonly workload: WorkloadPresence;
  readonly workloadName: string;
  readonly retain: boolean;
  /** The workload admits the znode's namespace (always true in its own namespace); read only while it is present. */
  readonly admitted: boolean;
  /** Another znode claimed the path first: this one never created it, and must not delete it. */
  readonly conflicting: boolean;
  readonly deletionTimestamp: Date;
  readonly now: Date;
  readonly releaseAfterMs: number;
}

export function deletionStep(input: DeletionInput): DeletionStep {
  const { workloadName } = input;
  if (input.conflicting) return { kind: 'Release', why: 'its path belongs to an earlier ZookeeperZnode, so it was never created for this one' };
  switch (input.workload) {
    case 'present':
      if (!input.admitted) return { kind: 'Revoke', why: `ZookeeperWorkload ${workloadName} does not admit the znode's namespace (any more); its path, if any, is left` };
      return { kind: 'CleanUp', retain: input.retain };
    case 'deleting':
      return { kind: 'Release', why: `ZookeeperWorkload ${workloadName} is being deleted, and its ensemble with it` };
    case 'missing':
    case 'invalid': {
      const remainingMs = input.deletionTimestamp.getTime() + input.releaseAfterMs - input.now.getTime();
      if (remainingMs > 0) return { kind: 'Wait', remainingMs };
      const state = input.workload === 'missing' ? 'does not exist' : 'does not validate';
      return { kind: 'Release', why: `ZookeeperWorkload ${workloadName} ${state} ${String(Math.round(input.releaseAfterMs / 1000))} s after the deletion began; the path, if any, is left` };
    }
  }
}
