// Errors of the appconfig reconcile: a failed step names itself and the ApplicationConfiguration, keeping the cause.
import { formatKey, type ObjectKey } from '@zk-oam/runtime';

export type ReconcileStep = 'Discover' | 'Apply' | 'Prune' | 'ReportStatus';

export class AppConfigStepError extends Error {
  override readonly name = 'AppConfigStepError';
  constructor(
    readonly step: ReconcileStep,
    readonly appConfig: string,
    options: { cause: unknown },
  ) {
    super(`${step} for ApplicationConfiguration ${appConfig} failed: ${options.cause instanceof Error ? options.cause.message : String(options.cause)}`, options);
  }
}

/** Runs one step; a failure is rethrown as an AppConfigStepError (the controller retries with backoff). */
export async function inStep<T>(step: ReconcileStep, key: ObjectKey, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw new AppConfigStepError(step, formatKey(key), { cause: error });
  }
}
