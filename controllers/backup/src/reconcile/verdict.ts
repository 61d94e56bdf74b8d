// What one reconcile concluded (pure data): nothing to run yet, a due run that cannot start, or the run it made. The
// status, its Events and the next look are all derived from the finding.
import type { BackupReason } from '@zk-oam/apis';
import type { InvalidTraitVerdict } from '@zk-oam/runtime';
import type { RunOutcome } from './run.js';

export type WaitReason = Extract<BackupReason, 'WorkloadNotFound' | 'WorkloadDeleting' | 'WorkloadInvalid' | 'WorkloadNotServing'>;

export type Finding =
  /** The spec does not validate, or its schedule does not parse: nothing is done. */
  | InvalidTraitVerdict
  /** No run is due: suspended, scheduled for later, or the one-off run is done. */
  | { readonly kind: 'Idle'; readonly reason: 'Suspended' | 'Scheduled' | 'Done'; readonly nextRunAt: Date | undefined }
  /** A run is due, but the workload cannot be backed up now. */
  | { readonly kind: 'Waiting'; readonly reason: WaitReason; readonly message: string }
  /** A run was made, successful or not. */
  | { readonly kind: 'Ran'; readonly outcome: RunOutcome; readonly observedRunTrigger: string | undefined; readonly nextRunAt: Date | undefined };
