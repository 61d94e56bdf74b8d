// The per-workload disruption lock the scale and rolling traits share, so that one disruptive operation at a time
// runs on an ensemble: both take the same Lease, each holding it as its own operation.

/** The Lease of a workload's disruption lock, in the workload's namespace. */
export function disruptionLeaseName(workload: string): string {
  return `${workload}-disruption`;
}

/** The traits whose operations disrupt an ensemble. */
export type DisruptiveTrait = 'scale' | 'rolling';

/**
 * Who holds the lock: the operation, named by its trait (`scale/<trait>`), never the process, so that a restarted
 * controller or its other replica holds its own lock again at once, and a scale and a roll never pass for each other.
 */
export function disruptionLockHolder(trait: DisruptiveTrait, traitName: string): string {
  return `${trait}/${traitName}`;
}
