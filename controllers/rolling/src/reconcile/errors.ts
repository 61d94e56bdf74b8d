// Errors of the rolling reconcile: a failed step names itself and the trait, keeping what failed as its cause.
import type { RollingReason } from '@zk-oam/apis';
import { formatKey, runStep, type ObjectKey } from '@zk-oam/runtime';

/** The step is the reason of the Warning Event and Ready condition a failure gives (the controller retries with backoff). */
export type ReconcileStep = Extract<RollingReason, 'Unbind' | 'Bind' | 'Observe' | 'Lock' | 'WriteStatus' | 'DeletePods' | 'Reconfigure'>;

/** Runs one step; a failure is rethrown as a ReconcileStepError naming the step. */
export function inStep<T>(step: ReconcileStep, key: ObjectKey, run: () => Promise<T>): Promise<T> {
  return runStep({ step, object: `ZookeeperRolling ${formatKey(key)}` }, run);
}

