// Step 2: the Secrets the members read at start, in this order: the superuser's (superuser-secret.ts), the TLS
// certificates (tls.ts), the SASL users' JAAS file (sasl-users.ts) and the x509 client CA (tls.ts). A Secret a person
// or the issuer must fix blocks the workload: the problem is reported (a Warning Event, and for all but the superuser
// Secret the Ready condition), nothing is rendered, and the reconcile looks again later (requeue.ts).
import type { ZookeeperWorkload } from '@zk-oam/apis';
import type { KubeClient, KubeObject, Logger, ObjectKey } from '@zk-oam/runtime';
import { workloadNames } from '../render/identity.js';
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
  /** What the step wrote (the TLS Secrets, the JAAS Secret), in that order, for its Events. */
  readonly actions: readonly ChildAction[];
  /** The generated superuser Secret, created while the children are applied (settleSuperuserSecret). */
  readonly superuser: Promise<ChildAction | undefined>;
}

type MemberSecretsDeps = Pick<WorkloadReconcilerDependencies, 'caches' | 'recorder' | 'now' | 'certManagerServed'> & { readonly client: Pick<KubeClient, 'request'> };

export type MemberSecretsOutcome =
  | { readonly kind: 'ready'; readonly secrets: MemberSecrets }
  /** Reported; look again after `retryMs`. */
  | { readonly kind: 'blocked'; readonly retryMs: number };

/** What the superuser Secret's step wrote, and whether it blocks the workload: a Secret a person must fix. */
export interface SuperuserSecretOutcome {
  readonly actions: readonly ChildAction[];
  /** Set when blocked: look again after it. */
  readonly retryMs?: number;
}

/**
 * Whether the superuser Secret is one to generate that no cache knows, not even the metadata of every Secret: a new
 * workload's. It is then created in the same round trip as the StatefulSet, not one before it (its pods mount it, and
 * they are created after the StatefulSet is stored). Any other, a Secret the spec names or one already there under the
 * generated name, is checked before anything is rendered: nothing is applied for a workload it blocks.
 */
function generatedAnew(deps: Pick<MemberSecretsDeps, 'caches'>, workload: ZookeeperWorkload): boolean {
  const { namespace, superuserSecret } = workloadNames(workload);
  return workload.spec.superuserSecretRef === undefined && deps.caches.secretMetadata.get({ namespace, name: superuserSecret }) === undefined;
}

/** Ensures the Secrets the members read; a new workload's superuser Secret is only started, for the caller to settle after the apply. */
export async function ensureMemberSecrets(deps: MemberSecretsDeps, key: ObjectKey, read: ValidWorkload, log: Logger): Promise<MemberSecretsOutcome> {
  const { raw, workload, statefulSet } = read;
  const superuser = inStep('SuperuserSecret', key, () => ensureSuperuserSecret(deps, workload));
  // Settled by the caller, or below when the workload is blocked: never an unhandled rejection meanwhile.
  superuser.catch(() => undefined);
  if (!generatedAnew(deps, workload)) {
    const named = await settleSuperuserSecret(deps, raw, superuser, log);
    if (named.retryMs !== undefined) return { kind: 'blocked', retryMs: named.retryMs };
  }
  try {
    const { actions: tlsActions, ...tls } = await inStep('TlsCertificates', key, () => ensureTlsCertificates(deps, workload, statefulSet));
    const sasl = await inStep('AuthenticationSecret', key, () => ensureSaslUsers(deps, workload));
    const clientCaDigest = await inStep('AuthenticationSecret', key, () => checkClientCa(deps, workload));
    return { kind: 'ready', secrets: { tls, saslRevision: sasl.revision, clientCaDigest, actions: [...tlsActions, ...sasl.actions], superuser } };
  } catch (error) {
    if (!isBlocked(error)) throw error;
    const created = await settleSuperuserSecret(deps, raw, superuser, log);
    await recordActions(deps, raw, [...created.actions, ...(error instanceof CertificateNotIssuedError ? error.actions : [])]);
    log.warn({ problem: error.message }, 'TLS certificates, SASL users or client CA not usable');
    await reportBlocked(deps, key, raw, error.reason, error.message);
    return { kind: 'blocked', retryMs: blockedRetryMs(error) };
  }
}

/** What the superuser Secret's step did; a Secret a person must fix is announced with a Warning Event. */
export async function settleSuperuserSecret(
  deps: Pick<WorkloadReconcilerDependencies, 'recorder'>,
  raw: KubeObject,
  superuser: Promise<ChildAction | undefined>,
  log: Logger,
): Promise<SuperuserSecretOutcome> {
  try {
    const action = await superuser;
    return { actions: action === undefined ? [] : [action] };
  } catch (error) {
    if (!(error instanceof SuperuserSecretInvalidError)) throw error;
    log.warn({ err: error }, 'superuser Secret unusable');
    await deps.recorder.record(raw, { type: 'Warning', reason: 'SuperuserSecretInvalid', action: 'Validate', note: error.message });
    return { actions: [], retryMs: blockedRetryMs(error) };
  }
}
