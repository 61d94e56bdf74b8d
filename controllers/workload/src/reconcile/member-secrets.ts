// Step 2: the Secrets the members read at start, in this order: the superuser's (superuser-secret.ts), the TLS
// certificates (tls.ts), the SASL users' JAAS file (sasl-users.ts) and the x509 client CA (tls.ts). A Secret a person
// or the issuer must fix blocks the workload: the problem is reported (a Warning Event, and for all but the superuser
// Secret the Ready condition), nothing is rendered, and the reconcile looks again later (requeue.ts).
import type { Logger, ObjectKey } from '@zk-oam/runtime';
import { recordActions, type ChildAction } from './apply-children.js';
import type { WorkloadReconcilerDependencies } from './dependencies.js';
import { CertificateNotIssuedError, inStep, isBlocked, SuperuserSecretInvalidError } from './errors.js';
import type { ValidWorkload } from './observe.js';
import { reportBlocked } from './status.js';
import { blockedRetryMs } from './requeue.js';
import { ensureSaslUsers } from './sasl-users.js';
import { ensureSuperuserSecret } from './superuser-secret.js';
import { checkClientCa, ensureTlsCertificates, type TlsOutcome } from './tls.js';

export interface MemberSecrets {
  readonly tls: Omit<TlsOutcome, 'actions'>;
  /** The JAAS Secret's revision, when spec.authentication uses SASL. */
  readonly saslRevision: string | undefined;
  /** The SHA-256 of the client CA's ca.crt, when spec.authentication uses x509. */
  readonly clientCaDigest: string | undefined;
  /** What the step wrote (the superuser Secret, the TLS Secrets, the JAAS Secret), in that order, for its Events. */
  readonly actions: readonly ChildAction[];
}

export type MemberSecretsOutcome =
  | { readonly kind: 'ready'; readonly secrets: MemberSecrets }
  /** Reported; look again after `retryMs`. */
  | { readonly kind: 'blocked'; readonly retryMs: number };

export async function ensureMemberSecrets(deps: WorkloadReconcilerDependencies, key: ObjectKey, read: ValidWorkload, log: Logger): Promise<MemberSecretsOutcome> {
  const { raw, workload, statefulSet } = read;
  let secretAction: ChildAction | undefined;
  try {
    secretAction = await inStep('SuperuserSecret', key, () => ensureSuperuserSecret(deps, workload));
  } catch (error) {
    if (!(error instanceof SuperuserSecretInvalidError)) throw error;
    log.warn({ err: error }, 'superuser Secret unusable');
    await deps.recorder.record(raw, { type: 'Warning', reason: 'SuperuserSecretInvalid', action: 'Validate', note: error.message });
    return { kind: 'blocked', retryMs: blockedRetryMs(error) };
  }
  try {
    const { actions: tlsActions, ...tls } = await inStep('TlsCertificates', key, () => ensureTlsCertificates(deps, workload, statefulSet));
    const sasl = await inStep('AuthenticationSecret', key, () => ensureSaslUsers(deps, workload));
    const clientCaDigest = await inStep('AuthenticationSecret', key, () => checkClientCa(deps, workload));
    const actions = [...(secretAction === undefined ? [] : [secretAction]), ...tlsActions, ...sasl.actions];
    return { kind: 'ready', secrets: { tls, saslRevision: sasl.revision, clientCaDigest, actions } };
  } catch (error) {
    if (!isBlocked(error)) throw error;
    if (error instanceof CertificateNotIssuedError) await recordActions(deps, raw, error.actions);
    log.warn({ problem: error.message }, 'TLS certificates, SASL users or client CA not usable');
    await reportBlocked(deps, key, raw, error.reason, error.message);
    return { kind: 'blocked', retryMs: blockedRetryMs(error) };
  }
}
