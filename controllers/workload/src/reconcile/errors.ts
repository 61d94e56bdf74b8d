// Errors of the workload reconcile: a failed step names itself and the workload, keeping what failed as its cause.
import { formatKey, type ObjectKey } from '@zk-oam/runtime';

export type ReconcileStep = 'SuperuserSecret' | 'ApplyChildren' | 'ReportStatus';

export class WorkloadStepError extends Error {
  override readonly name = 'WorkloadStepError';
  constructor(
    readonly step: ReconcileStep,
    readonly workload: string,
    options: { cause: unknown },
  ) {
    super(`${step} for ZookeeperWorkload ${workload} failed: ${options.cause instanceof Error ? options.cause.message : String(options.cause)}`, options);
  }
}

/** Runs one step; an unexpected failure is rethrown as a WorkloadStepError (the controller retries with backoff). */
export async function inStep<T>(step: ReconcileStep, key: ObjectKey, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof SuperuserSecretInvalidError || error instanceof WorkloadStepError) throw error;
    throw new WorkloadStepError(step, formatKey(key), { cause: error });
  }
}

/** The Secret named in spec.superuserSecretRef is missing or lacks a key; the user must fix it. */
export class SuperuserSecretInvalidError extends Error {
  override readonly name = 'SuperuserSecretInvalidError';
  constructor(readonly secret: string, problem: string) {
    super(`superuser Secret ${secret} ${problem}`);
  }
}
