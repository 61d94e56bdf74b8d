// Errors of the rolling reconcile: a failed step names itself and the trait, keeping what failed as its cause.
import { formatKey, type ObjectKey } from '@zk-oam/runtime';

/** The step is the category a person reads in logs (and the controller retries the reconcile with backoff). */
export type RollingReconcileStep = 'Unbind' | 'Bind' | 'Observe' | 'Lock' | 'WriteStatus' | 'DeletePods';

export class RollingStepError extends Error {
  override readonly name = 'RollingStepError';
  constructor(
    readonly step: RollingReconcileStep,
    readonly trait: string,
    options: { cause: unknown },
  ) {
    super(`${step} for ZookeeperRolling ${trait} failed: ${options.cause instanceof Error ? options.cause.message : String(options.cause)}`, options);
  }
}

/** Runs one step; a failure is rethrown as a RollingStepError naming the step. */
export async function inStep<T>(step: RollingReconcileStep, key: ObjectKey, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof RollingStepError) throw error;
    throw new RollingStepError(step, formatKey(key), { cause: error });
  }
}

/** The StatefulSet or a pod read from the API lacks a field the roll reads. */
export class ObjectShapeError extends Error {
  override readonly name = 'ObjectShapeError';
  constructor(kind: string, name: string, options: ErrorOptions) {
    super(`${kind} ${name} lacks a field the rolling controller reads`, options);
  }
}
