// What one look at an ensemble found: each member pod's four-letter-word answers and the committed configuration.
import type { CommittedConfig } from '../admin/client.js';
import type { MemberObservation } from '../health/observation.js';

export interface ObservedPod {
  pod: string;
  myid: number;
  /** The pod IP the member was asked on; undefined while the pod has none. */
  ip: string | undefined;
  /** `id` is the myid, `address` the pod IP; `error` says why srvr gave no answer. */
  observation: MemberObservation;
}

/** The committed config as read from one serving member, or why it could not be read. */
export type CommittedConfigReading =
  | { ok: true; config: CommittedConfig; readFrom: string }
  | { ok: false; error: Error };

export interface EnsembleObservation {
  /** Sorted by myid. */
  members: ObservedPod[];
  committed: CommittedConfigReading;
}
