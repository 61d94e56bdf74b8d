// Errors of the backup reconcile. Its one step of its own, writing the status, fails as every controller's does (the
// runtime's reportStatus): a ReconcileStepError, retried by the queue with backoff. A run's failure is another thing: a stable category
// (the Ready condition's and the Warning Event's reason, and the run's message), the step, and what failed as its
// cause, recorded in the status, not thrown: the schedule decides when to try again, not the queue's backoff.
import type { BackupReason } from '@zk-oam/apis';
import { SecretValueError } from '@zk-oam/runtime';
import { ConcurrentChangesError, ZooKeeperOperationError } from '@zk-oam/zookeeper';
import { ObjectStoreError } from '../store/object-store.js';

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
