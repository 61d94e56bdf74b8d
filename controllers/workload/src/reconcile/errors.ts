// Errors of the workload reconcile: a failed step names itself and the workload, keeping what failed as its cause.
import type { WorkloadFailedStep } from '@zk-oam/apis';
import { formatKey, runStep, type ObjectKey } from '@zk-oam/runtime';
import type { ChildAction } from './apply-children.js';

/** A failed step's name is the reason of its Warning Event and Ready condition. */
export type ReconcileStep = WorkloadFailedStep;

/** Runs one step; an unexpected failure is rethrown as a ReconcileStepError (the controller retries with backoff). */
export function inStep<T>(step: ReconcileStep, key: ObjectKey, run: () => Promise<T>): Promise<T> {
  return runStep(
    { step, object: `ZookeeperWorkload ${formatKey(key)}` },
    run,
    (error) => error instanceof SuperuserSecretInvalidError || isBlocked(error),
  );
}

/** A TLS problem a person or the issuer must resolve: reported as the Ready condition, not retried as a failure. */
export function isTlsBlocked(error: unknown): error is TlsCaSecretInvalidError | CertManagerMissingError | CertificateNotIssuedError {
  return error instanceof TlsCaSecretInvalidError || error instanceof CertManagerMissingError || error instanceof CertificateNotIssuedError;
}

/** A problem with a Secret the members need that a person (or the issuer) must resolve: TLS, or spec.authentication's. */
export function isBlocked(error: unknown): error is TlsCaSecretInvalidError | CertManagerMissingError | CertificateNotIssuedError | AuthenticationSecretInvalidError {
  return isTlsBlocked(error) || error instanceof AuthenticationSecretInvalidError;
}

/** What stops a reconcile until a person or the issuer acts: a blocked step, or an unusable superuser Secret. */
export type BlockingError = SuperuserSecretInvalidError | TlsCaSecretInvalidError | CertManagerMissingError | CertificateNotIssuedError | AuthenticationSecretInvalidError;

/** The Secret named in spec.superuserSecretRef is missing or lacks a key; the user must fix it. */
export class SuperuserSecretInvalidError extends Error {
  override readonly name = 'SuperuserSecretInvalidError';
  constructor(readonly secret: string, problem: string) {
    super(`superuser Secret ${secret} ${problem}`);
  }
}

/** The CA Secret (the user's, or the one the controller keeps) is missing or unusable; the user must fix it. */
export class TlsCaSecretInvalidError extends Error {
  override readonly name = 'TlsCaSecretInvalidError';
  readonly reason = 'TlsCaSecretInvalid';
  constructor(readonly secret: string, problem: string) {
    super(`TLS CA Secret ${secret} ${problem}`);
  }
}

/** spec.tls.certificates.issuerRef asks for a cert-manager Certificate, and the cluster does not serve that kind. */
export class CertManagerMissingError extends Error {
  override readonly name = 'CertManagerMissingError';
  readonly reason = 'CertManagerMissing';
  constructor(readonly certificate: string) {
    super(
      `Certificate ${certificate} cannot be requested: cert-manager's CRDs are not installed (the cluster does not serve ` +
        'certificates.cert-manager.io/v1); install cert-manager, or remove spec.tls.certificates.issuerRef',
    );
  }
}

/** The Certificate is requested, and its Secret is not there or not usable yet: the issuer has work to do. */
export class CertificateNotIssuedError extends Error {
  override readonly name = 'CertificateNotIssuedError';
  readonly reason = 'CertificateNotIssued';
  /** `actions`: what the step did before finding the Secret not issued (the Certificate's creation), for its Event. */
  constructor(readonly certificate: string, readonly secret: string, problem: string, readonly actions: readonly ChildAction[] = []) {
    super(`Certificate ${certificate} is not issued: its Secret ${secret} ${problem}`);
  }
}

/** Which Secret of spec.authentication a problem is about, as a message names it. */
export type AuthenticationSecretRole = 'SASL users' | 'client CA';

/**
 * A Secret spec.authentication names (the SASL users, or the x509 client CA) is missing or unusable; the user must fix
 * it. Never holds a password or a key.
 */
export class AuthenticationSecretInvalidError extends Error {
  override readonly name = 'AuthenticationSecretInvalidError';
  readonly reason = 'AuthenticationSecretInvalid';
  constructor(role: AuthenticationSecretRole, readonly secret: string, problem: string) {
    super(`${role} Secret ${secret} ${problem}`);
  }
}
