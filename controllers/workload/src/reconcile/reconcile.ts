// The workload reconcile, a named pipeline: read -> superuser Secret -> TLS certificates -> SASL users -> client CA ->
// decide -> render -> apply -> observe and report.
// Every step re-reads state and is idempotent, so a crash at any line is repaired by the next run.
import type { V1StatefulSet } from '@kubernetes/client-node';
import type { ZookeeperWorkload } from '@zk-oam/apis';
import { done, formatKey, requeueAfter, storedStatus, type ObjectKey, type ReconcileContext, type ReconcileResult, type Reconciler } from '@zk-oam/runtime';
import { workloadNames } from '../render/identity.js';
import type { RenderInput } from '../render/input.js';
import { renderWorkload, type RenderedWorkload } from '../render/render.js';
import { CA_ROTATION_ANNOTATION, type CaRotationStep } from '../tls/ca-rotation.js';
import { QUORUM_TLS_ANNOTATION } from '../tls/quorum-steps.js';
import { withAnnotations } from './applied-hash.js';
import { applyChildren, recordActions, type ChildAction } from './apply-children.js';
import { statefulSetView } from './cached-objects.js';
import type { WorkloadReconcilerDependencies } from './dependencies.js';
import { CertificateNotIssuedError, inStep, isBlocked, SuperuserSecretInvalidError } from './errors.js';
import { INITIAL_MEMBERS_ANNOTATION } from './markers.js';
import { blockedRetryMs, nextLook } from './next-look.js';
import { readWorkload } from './read-workload.js';
import { decideRenderInput } from './render-decisions.js';
import { reportBlocked } from './report-blocked.js';
import { reportStatus } from './report-status.js';
import { ensureSaslUsers, type SaslOutcome } from './sasl-users.js';
import { announceRefusal } from './scale-refusal.js';
import { WORKLOAD_STATUS } from './status-writer.js';
import { ensureSuperuserSecret } from './superuser-secret.js';
import { announceTlsSteps, checkClientCa, ensureTlsCertificates, memberAccess, type TlsOutcome } from './tls.js';


export function workloadReconciler(deps: WorkloadReconcilerDependencies): Reconciler {
  return (key, context) => reconcileWorkload(deps, key, context);
}

export async function reconcileWorkload(deps: WorkloadReconcilerDependencies, key: ObjectKey, context: ReconcileContext): Promise<ReconcileResult> {
  const reading = readWorkload(deps, key);
  if (reading.kind === 'absent' || reading.kind === 'deleting') {
    deps.pacer.release(formatKey(key));
    deps.observations.forget(key);
    return done;
  }
  if (reading.kind === 'invalid') {
    context.log.warn({ problems: reading.error.problems }, 'workload does not validate; reported, waiting for a spec change');
    await reportBlocked(deps, key, reading.raw, 'InvalidSpec', reading.error.message);
    return done;
  }
  const { raw, workload } = reading;
  let secretAction: ChildAction | undefined;
  try {
    secretAction = await inStep('SuperuserSecret', key, () => ensureSuperuserSecret(deps, workload));
  } catch (error) {
    if (!(error instanceof SuperuserSecretInvalidError)) throw error;
    context.log.warn({ err: error }, 'superuser Secret unusable');
    await deps.recorder.record(raw, { type: 'Warning', reason: 'SuperuserSecretInvalid', action: 'Validate', note: error.message });
    return requeueAfter(blockedRetryMs(error));
  }
  const statefulSet = liveStatefulSet(deps, workload);
  let secrets: MemberSecrets;
  try {
    secrets = await memberSecrets(deps, key, workload, statefulSet);
  } catch (error) {
    if (!isBlocked(error)) throw error;
    if (error instanceof CertificateNotIssuedError) await recordActions(deps, raw, error.actions);
    context.log.warn({ problem: error.message }, 'TLS certificates, SASL users or client CA not usable');
    await reportBlocked(deps, key, raw, error.reason, error.message);
    return requeueAfter(blockedRetryMs(error));
  }
  const { tls, sasl, clientCaDigest } = secrets;
  const monitoringServed = await deps.monitoringServed();
  const decision = decideRenderInput({ workload, statefulSet, monitoringServed, tls: tls.state, saslRevision: sasl.revision, clientCaDigest });
  await announceRefusal(deps, raw, decision.refusal, storedStatus(WORKLOAD_STATUS.schema, raw), context.log);
  const applied = await inStep('ApplyChildren', key, () =>
    applyChildren(deps, workload, renderChildren(decision.input, tls.state?.caRotation), { monitoringServed, names: workloadNames(workload) }),
  );
  const actions = [...(secretAction === undefined ? [] : [secretAction]), ...tls.actions, ...sasl.actions, ...applied];
  if (actions.length > 0) context.log.info({ actions: actions.map((action) => action.note) }, 'applied children');
  await recordActions(deps, raw, actions);
  await announceTlsSteps(deps, raw, workload, { before: statefulSet, quorumStep: decision.input.quorumTls, applied, rotationBegun: tls.rotationBegun });
  const access = await memberAccess(workload, tls.state);
  const report = await inStep('ReportStatus', key, () => reportStatus(deps, raw, workload, statefulSet, decision.refusal, access));
  if (report.written) context.log.debug({ phase: report.status.phase, leader: report.status.leader }, 'status written');
  return nextLook(formatKey(key), report, actions, deps, tls.state?.renewAt);
}

interface MemberSecrets {
  readonly tls: TlsOutcome;
  readonly sasl: SaslOutcome;
  readonly clientCaDigest: string | undefined;
}

/** The Secrets the members read at start: the TLS certificates, the SASL users' JAAS file, the x509 client CA. */
async function memberSecrets(
  deps: WorkloadReconcilerDependencies,
  key: ObjectKey,
  workload: ZookeeperWorkload,
  statefulSet: V1StatefulSet | undefined,
): Promise<MemberSecrets> {
  const tls = await inStep('TlsCertificates', key, () => ensureTlsCertificates(deps, workload, statefulSet));
  const sasl = await inStep('AuthenticationSecret', key, () => ensureSaslUsers(deps, workload));
  const clientCaDigest = await inStep('AuthenticationSecret', key, () => checkClientCa(deps, workload));
  return { tls, sasl, clientCaDigest };
}

function liveStatefulSet(deps: WorkloadReconcilerDependencies, workload: ZookeeperWorkload): V1StatefulSet | undefined {
  const names = workloadNames(workload);
  const cached = deps.caches.statefulSets.get({ namespace: names.namespace, name: names.statefulSet });
  return cached === undefined ? undefined : statefulSetView(cached);
}

/**
 * The rendered children; the StatefulSet also records the initial members, fixed for the workload's life, the
 * quorum TLS step its template renders, and the step of a CA rotation under way.
 */
function renderChildren(input: RenderInput, caRotation: CaRotationStep | undefined): RenderedWorkload {
  const rendered = renderWorkload(input);
  return {
    ...rendered,
    statefulSet: withAnnotations(rendered.statefulSet, {
      [INITIAL_MEMBERS_ANNOTATION]: String(input.initialMembers),
      [QUORUM_TLS_ANNOTATION]: input.quorumTls,
      ...(caRotation === undefined ? {} : { [CA_ROTATION_ANNOTATION]: String(caRotation) }),
    }),
  };
}
