// Errors of the appconfig reconcile: a failed step names itself and the ApplicationConfiguration, keeping the cause.
import type { AppConfigReason } from '@zk-oam/apis';
import { formatKey, runStep, type ObjectKey } from '@zk-oam/runtime';

/** A failed step's name is the reason of its Warning Event and Synced condition. */
export type ReconcileStep = Extract<AppConfigReason, 'Discover' | 'Apply' | 'Prune' | 'ReportStatus' | 'Finalize'>;

/** Runs one step; a failure is rethrown as a ReconcileStepError (the controller retries with backoff). */
export function inStep<T>(step: ReconcileStep, key: ObjectKey, run: () => Promise<T>): Promise<T> {
  return runStep({ step, object: `ApplicationConfiguration ${formatKey(key)}` }, run);
}
