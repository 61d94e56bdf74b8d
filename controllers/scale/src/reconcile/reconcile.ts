// The scale reconcile, a named pipeline: read -> (unbind) -> decide (bind, observe, plan, lock) -> act -> report.
// Every step re-reads state, and the plan is derived from observation alone, so a controller killed at any line
// resumes where the world is: it neither repeats nor skips a reconfig. A trait that does not validate goes straight to
// report: Ready says so, the rest of its status stays, and nothing else is done until its spec changes.
import { ZOOKEEPER_SCALE, zookeeperScaleSchema, type WorkloadSubject } from '@zk-oam/apis';
import {
  done,
  forgetTrait,
  formatKey,
  invalidTraitVerdict,
  keyOf,
  readTrait,
  reportStatus,
  type KubeObject,
  type LockOutcome,
  type ObjectKey,
  type ReconcileContext,
  type Reconciler,
  type ReconcileResult,
} from '@zk-oam/runtime';
import { act } from './act.js';
import { announce, factsOf } from './announce.js';
import { decide } from './decide.js';
import type { ScaleReconcilerDependencies } from './dependencies.js';
import { inStep } from './errors.js';
import { releaseLock } from './lock.js';
import { nextReconcile } from './requeue.js';
import { SCALE_STATUS } from './resources.js';
import { nextStatus } from './status.js';
import { changeToMake, type ScaleVerdict } from './verdict.js';

/** A failed step is reported on the trait by the kit (reportFailures), which then backs off. */
export function scaleReconciler(deps: ScaleReconcilerDependencies): Reconciler {
  return (key, context) => reconcileScale(deps, key, context);
}

export async function reconcileScale(deps: ScaleReconcilerDependencies, key: ObjectKey, context: ReconcileContext): Promise<ReconcileResult> {
  const reading = readTrait(deps.caches, zookeeperScaleSchema, ZOOKEEPER_SCALE.kind, key);
  if (reading.kind === 'absent') return forgetTrait(deps, key);
  if (reading.kind === 'invalid') return settle(deps, reading.raw, invalidTraitVerdict(reading.error, context.log), context);
  const { raw, trait, workload } = reading;
  if (deps.binding.needsUnbind(raw)) {
    await inStep('Unbind', 'BindingFailed', key, () => unbind(deps, raw, workload, context));
    return done;
  }
  if (raw.metadata.deletionTimestamp !== undefined) return done;
  const verdict = await decide(deps, key, raw, trait, workload, context);
  return settle(deps, raw, verdict, context);
}

/** Carry out the verdict's member change, report the status it gives, and say when to look again. */
async function settle(deps: ScaleReconcilerDependencies, raw: KubeObject, verdict: ScaleVerdict, context: ReconcileContext): Promise<ReconcileResult> {
  const change = changeToMake(verdict);
  if (verdict.kind === 'Planned') {
    const log = context.log.child({ workload: verdict.workload.metadata.name, action: verdict.plan.action.kind, step: verdict.plan.step });
    if (change !== undefined) await act(deps, raw, verdict, change, log);
    else logWait(log, verdict.lock);
  }
  await report(deps, raw, verdict);
  return nextReconcile(verdict, deps.timing, (periodMs) => deps.pacer.delayMs(formatKey(keyOf(raw)), periodMs));
}

function logWait(log: ReconcileContext['log'], lock: LockOutcome): void {
  if (lock.kind === 'busy') log.info({ holder: lock.holder, since: lock.since }, 'another operation holds the disruption lock; waiting');
  else if (lock.kind === 'lost') log.warn({ holder: lock.holder, since: lock.since }, 'disruption lock lost while a step was under way; waiting for it');
  else log.debug('nothing to do but wait');
}

/** The status the verdict gives, written only when it changed, then what it announces. */
async function report(deps: ScaleReconcilerDependencies, raw: KubeObject, verdict: ScaleVerdict): Promise<void> {
  const { previous, next, written } = await reportStatus(deps.client, SCALE_STATUS, raw, deps.now(), (stored, context) => nextStatus(stored, verdict, context));
  const operationStart = next.operation?.startedAt;
  // A trait that does not validate waits for a person, as a blocked one does.
  const blocked = verdict.kind === 'Invalid' || next.phase === 'Blocked';
  deps.traitMetrics.report(keyOf(raw), { blocked, operationStartedAt: operationStart === undefined ? undefined : new Date(operationStart) });
  if (written) await announce(deps, raw, subjectOf(verdict), factsOf(previous, next));
}

function subjectOf(verdict: ScaleVerdict): WorkloadSubject | undefined {
  if (verdict.kind !== 'Planned') return undefined;
  const { name, namespace = '', uid } = verdict.workload.metadata;
  return { namespace, name, uid };
}

/** The trait is going: the lock is released if it holds it (the operation stops here), then it unbinds: the annotation goes (the workload controller stops following spec.replicas), then the finalizer. */
async function unbind(deps: ScaleReconcilerDependencies, raw: KubeObject, workload: KubeObject | undefined, context: ReconcileContext): Promise<void> {
  if (workload !== undefined) await releaseLock(deps, raw, workload);
  await deps.binding.unbind(raw, workload, context.log);
}
