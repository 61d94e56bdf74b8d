// Errors of the workload reconcile: a failed step names itself and the workload, keeping what failed as its cause.
import type { WorkloadFailedStep, WorkloadReason } from '@zk-oam/apis';
import { formatKey, runStep, type ObjectKey } from '@zk-oam/runtime';

/** A failed step's name is the reason of its Warning Event and Ready condition. */
export type ReconcileStep = WorkloadFailedStep;

/** Runs one step; an unexpected failure is rethrown as a ReconcileStepError (the controller retries with backoff). */
export function inStep<T>(step: ReconcileStep, key: ObjectKey, run: () => Promise<T>): Promise<T> {
  return runStep(
    { step, object: `ZookeeperWorkload ${formatKey(key)}` },
    run,
    (error) => error instanceof SuperuserSecretInvalidError || error instanceof BlockingSecretError,
  );
}

/** The Secret named in spec.superuserSecretRef is missing or lacks a key; the user must fix it. */
export class SuperuserSecretInvalidError extends Error {
  override readonly name = 'SuperuserSecretInvalidError';
  constructor(readonly secret: string, problem: string) {
    super(`superuser Secret ${secret} ${problem}`);
  }
}

/** A Secret the members need is unusable until a person fixes it: the workload is blocked with `reason` meanwhile. */
export abstract class BlockingSecretError extends Error {
  abstract readonly reason: Extract<WorkloadReason, 'TlsCaSecretInvalid' | 'AuthenticationSecretInvalid'>;
  constructor(readonly secret: string, message: string) {
    super(message);
  }
}

/** The CA Secret (the user's, or the one the controller keeps) is missing or unusable; the user must fix it. */
export class TlsCaSecretInvalidError extends BlockingSecretError {
  override readonly name = 'TlsCaSecretInvalidError';
  readonly reason = 'TlsCaSecretInvalid';
  constructor(secret: string, problem: string) {
    super(secret, `TLS CA Secret ${secret} ${problem}`);
  }
}

/** The users Secret spec.authentication.sasl names is missing or unusable; the user must fix it. Never holds a password. */
export class AuthenticationSecretInvalidError extends BlockingSecretError {
  override readonly name = 'AuthenticationSecretInvalidError';
  readonly reason = 'AuthenticationSecretInvalid';
  constructor(secret: string, problem: string) {
    super(secret, `SASL users Secret ${secret} ${problem}`);
  }
}
