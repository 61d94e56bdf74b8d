// Errors of the scale reconcile: a failed step names itself, the trait and a stable category (the Event reason a
// person reads), keeping what failed as its cause.
import { formatKey, type ObjectKey } from '@zk-oam/runtime';

export type ReconcileStep = 'Bind' | 'Unbind' | 'Lock' | 'Observe' | 'Act' | 'ReportStatus';

/** CamelCase, used as is for the Warning Event's reason. */
export type ErrorCategory =
  | 'BindingFailed'
  | 'LockFailed'
  | 'ObservationFailed'
  | 'SuperuserSecretUnusable'
  | 'ReplicasUpdateFailed'
  | 'ReconfigFailed'
  | 'ConfirmWriteFailed'
  | 'VolumeDeleteFailed'
  | 'StatusWriteFailed';

export class ScaleStepError extends Error {
  override readonly name = 'ScaleStepError';
  constructor(
    readonly step: ReconcileStep,
    readonly category: ErrorCategory,
    readonly trait: string,
    options: { cause: unknown },
  ) {
    super(`${step} for ZookeeperScale ${trait} failed (${category}): ${messageOf(options.cause)}`, options);
  }
}

function messageOf(cause: unknown): string {
  return cause instanceof Error ? cause.message : String(cause);
}

/** Runs one step; a failure is rethrown as a ScaleStepError (the controller retries with backoff). */
export async function inStep<T>(step: ReconcileStep, category: ErrorCategory, key: ObjectKey, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof ScaleStepError) throw error;
    throw new ScaleStepError(step, category, formatKey(key), { cause: error });
  }
}

/** The superuser Secret is missing or lacks `password`: reconfig cannot authenticate until someone fixes it. */
export class SuperuserSecretError extends Error {
  override readonly name = 'SuperuserSecretError';
  constructor(secret: string, problem: string) {
    super(`superuser Secret ${secret} ${problem}`);
  }
}
