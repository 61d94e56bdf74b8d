// Errors of the scale reconcile: a failed step names itself, the trait and a stable category (the Event reason a
// person reads), keeping what failed as its cause.
import type { ScaleReason } from '@zk-oam/apis';
import { formatKey, runStep, type ObjectKey } from '@zk-oam/runtime';

export type ReconcileStep = 'Bind' | 'Unbind' | 'Lock' | 'Observe' | 'Act' | 'ReportStatus';

/** CamelCase, used as is for the Warning Event's and the Ready condition's reason. */
export type ErrorCategory = Extract<
  ScaleReason,
  | 'BindingFailed'
  | 'LockFailed'
  | 'ObservationFailed'
  | 'SuperuserSecretUnusable'
  | 'TlsSecretUnusable'
  | 'ReplicasUpdateFailed'
  | 'ReconfigFailed'
  | 'ConfirmWriteFailed'
  | 'VolumeDeleteFailed'
  | 'StatusWriteFailed'
>;

/** Runs one step; a failure is rethrown as a ReconcileStepError carrying `category` (the controller retries with backoff). */
export function inStep<T>(step: ReconcileStep, category: ErrorCategory, key: ObjectKey, run: () => Promise<T>): Promise<T> {
  return runStep({ step, category, object: `ZookeeperScale ${formatKey(key)}` }, run);
}
