// The reason of a reconcile that failed with an error no step named: a defect, reported rather than retried silently.
import { reasonCatalog } from './entry.js';

export const RECONCILE_FAILURE_REASONS = reasonCatalog({
  InternalError: {
    shownIn: ['Ready (Synced for an ApplicationConfiguration)', 'Warning Event'],
    means: 'The reconcile failed with an unexpected error; the message quotes it. The controller retries with backoff.',
    todo: 'Read the controller\'s log for the object (it names the object and the step); report it as a bug with that log.',
  },
});
export type ReconcileFailureReason = keyof typeof RECONCILE_FAILURE_REASONS;
