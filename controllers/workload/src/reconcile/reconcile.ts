// The workload reconcile, a named pipeline, one module per step:
//   1. read          observe.ts           the workload and its StatefulSet from the caches, parsed once  (no client)
//   2. secrets       member-secrets.ts    the Secrets the members read: superuser, TLS, SASL, client CA  (client)
//   3. decide        render-decisions.ts  what to render, and the render                              (no client)
//   4. apply         apply-children.ts    each child whose applied hash changed, then an Event per verb  (client)
//   5. restore       ../restore/          spec.restoreFrom: verify the backup, write it, let clients in  (client)
//   6. status        status.ts            observe the ensemble, write the status, announce the facts     (client)
//                                         (of the StatefulSet as the apply stored it, when one was applied)
//   7. requeue       requeue.ts           when to look again                                            (no client)
// TLS takes part in several steps through one file, tls.ts. Every step re-reads state and is idempotent, so a crash at
// any line is repaired by the next run.
import { done, formatKey, requeueAfter, type ObjectKey, type ReconcileContext, type ReconcileResult, type Reconciler } from '@zk-oam/runtime';
import { applyChildren, recordActions } from './apply-children.js';
import type { WorkloadReconcilerDependencies } from './dependencies.js';
import { inStep } from './errors.js';
import { ensureMemberSecrets, settleSuperuserSecret } from './member-secrets.js';
import { readWorkload } from './observe.js';
import { childrenRender, decideRenderInput } from './render-decisions.js';
import { reportBlocked, reportStatus } from './status.js';
import { earliest, nextLook } from './requeue.js';
import { nextAttemptAt, restoreBackup } from '../restore/index.js';
import { announceRefusal } from './scale-refusal.js';
import { announceTlsSteps, memberAccess } from './tls.js';

export function workloadReconciler(deps: WorkloadReconcilerDependencies): Reconciler {
  return (key, context) => reconcileWorkload(deps, key, context);
}

export async function reconcileWorkload(deps: WorkloadReconcilerDependencies, key: ObjectKey, context: ReconcileContext): Promise<ReconcileResult> {
  const reading = readWorkload(deps, key);
  if (reading.kind === 'absent' || reading.kind === 'deleting') {
    deps.pacer.release(formatKey(key));
    deps.observations.forget(key);
    deps.renderedHashes.forget(formatKey(key));
    deps.statuses.forget(key);
    return done;
  }
  if (reading.kind === 'invalid') {
    context.log.warn({ problems: reading.error.problems }, 'workload does not validate; reported, waiting for a spec change');
    await reportBlocked(deps, key, reading.raw, 'InvalidSpec', reading.error.message);
    return done;
  }
  const { raw, workload, statefulSet } = reading;

  // Discovery is asked while the Secrets are written, not after: its first answer is a round trip (later ones come from
  // memory, api-discovery.ts).
  const [secrets, monitoringServed] = await Promise.all([ensureMemberSecrets(deps, key, reading, context.log), deps.monitoringServed()]);
  if (secrets.kind === 'blocked') return requeueAfter(secrets.retryMs);
  const { tls, saslRevision, clientCaDigest } = secrets.secrets;

  const decision = decideRenderInput({ workload, statefulSet, monitoringServed, tls: tls.state, saslRevision, clientCaDigest });
  await announceRefusal(deps, raw, decision.refusal, context.log);

  const children = await inStep('ApplyChildren', key, () => applyChildren(deps, workload, childrenRender(decision.input, tls.state?.caRotation), { monitoringServed, othersPending: context.othersPending() }));
  const applied = children.actions;
  const superuser = await settleSuperuserSecret(deps, raw, secrets.secrets.superuser, context.log);
  const actions = [...superuser.actions, ...secrets.secrets.actions, ...applied];
  if (actions.length > 0) context.log.info({ actions: actions.map((action) => action.note) }, 'applied children');
  await recordActions(deps, raw, actions);
  if (superuser.retryMs !== undefined) return requeueAfter(superuser.retryMs);
  await announceTlsSteps(deps, raw, workload, { before: statefulSet, quorumStep: decision.input.quorumTls, applied, rotationBegun: tls.rotationBegun });

  const access = await memberAccess(workload, tls.state);
  const restore = await restoreBackup(deps, raw, workload, access, context.log);
  const report = await inStep('ReportStatus', key, () => reportStatus(deps, raw, workload, children.statefulSet ?? statefulSet, { refusal: decision.refusal, restore }, access));
  if (report.written) context.log.debug({ phase: report.status.phase, leader: report.status.leader }, 'status written');

  return nextLook(formatKey(key), report, actions, deps, earliest(tls.state?.renewAt, nextAttemptAt(restore)));
}
