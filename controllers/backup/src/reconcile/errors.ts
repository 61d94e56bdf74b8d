// Errors of the backup reconcile. A step of the reconcile itself (writing the status) fails as the other controllers'
// steps do: a ReconcileStepError, retried by the queue with backoff. A run's failure is another thing: a stable category
// (the Ready condition's and the Warning Event's reason, and the run's message), the step, and what failed as its
// cause, recorded in the status, not thrown: the schedule decides when to try again, not the queue's backoff.
import { ZOOKEEPER_BACKUP, type BackupReason, type TraitStep } from '@zk-oam/apis';
import { SecretValueError, stepRunner } from '@zk-oam/runtime';
import { ConcurrentChangesError, ZooKeeperOperationError } from '@zk-oam/zookeeper';
import { ObjectStoreError } from '../store/object-store.js';

/** The steps of the reconcile, outside a run: the traits' step names, the one the backup shares with them. */
export type ReconcileStep = Extract<TraitStep, 'ReportStatus'>;

/** Runs one step of the reconcile; a failure is rethrown as a ReconcileStepError carrying the reason. */
export const inStep = stepRunner<ReconcileStep, Extract<BackupReason, 'StatusWriteFailed'>>(ZOOKEEPER_BACKUP.kind);

export type RunStep = 'ReadCredentials' | 'Dump' | 'Upload' | 'Retention';

export type RunFailureCategory = Extract<
  BackupReason,
  'SuperuserSecretUnusable' | 'TlsSecretUnusable' | 'TargetCredentialsUnusable' | 'TargetUnavailable' | 'ZooKeeperUnavailable' | 'ZooKeeperRefused' | 'ConcurrentChanges'
>;

export class RunFailure extends Error {
  override readonly name = 'RunFailure';
  constructor(
    readonly step: RunStep,
    readonly category: RunFailureCategory,
    options: ErrorOptions,
  ) {
    super(`${step}: ${options.cause instanceof Error ? options.cause.message : String(options.cause)}`, options);
  }
}

/** Runs one step of a run; what it throws becomes a RunFailure of `secrets` (a Secret's problem) or of what failed. */
export async function inRunStep<T>(step: RunStep, secrets: RunFailureCategory, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof RunFailure) throw error;
    throw new RunFailure(step, categoryOf(error, secrets), { cause: error });
  }
}

function categoryOf(error: unknown, secrets: RunFailureCategory): RunFailureCategory {
  if (error instanceof SecretValueError) return secrets;
  if (error instanceof ObjectStoreError) return 'TargetUnavailable';
  if (error instanceof ConcurrentChangesError) return 'ConcurrentChanges';
  if (error instanceof ZooKeeperOperationError) return 'ZooKeeperRefused';
  return secrets === 'TargetCredentialsUnusable' ? 'TargetUnavailable' : 'ZooKeeperUnavailable';
}
