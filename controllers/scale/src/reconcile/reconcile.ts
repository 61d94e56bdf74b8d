// The scale reconcile, a named pipeline: read -> (unbind) -> decide (bind, observe, plan, lock) -> act -> report.
// Every step re-reads state, and the plan is derived from observation alone, so a controller killed at any line
// resumes where the world is: it neither repeats nor skips a reconfig.
import { ZOOKEEPER_SCALE, zookeeperScaleSchema } from '@zk-oam/apis';
import {
  done,
  formatKey,
  keyOf,
  readTrait,
  storedStatus,
  writeStatusIfChanged,
  type KubeObject,
  type ObjectKey,
  type ReconcileContext,
  type ReconcileResult,
  type Reconciler,
} from '@zk-oam/runtime';
import { act } from './act.js';
import { announce, announcements, type WorkloadSubject } from './announce.js';
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
  if (reading.kind === 'absent') {
    deps.pacer.release(formatKey(key));
    deps.traitMetrics.forget(key);
    return done;
  }
  if (reading.kind === 'invalid') {
    context.log.warn({ problems: reading.error.problems }, 'trait does not validate; waiting for a spec change');
    await deps.recorder.record(reading.raw, { type: 'Warning', reason: 'InvalidSpec', action: 'Validate', note: reading.error.message });
    return done;
  }
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
    else if (verdict.lock.kind === 'busy') log.info({ holder: verdict.lock.holder, since: verdict.lock.since }, 'another operation holds the disruption lock; waiting');
    else log.debug('nothing to do but wait');
  }
  await report(deps, raw, verdict);
  return nextReconcile(verdict, deps.timing, (periodMs) => deps.pacer.delayMs(formatKey(keyOf(raw)), periodMs));
}

/** The status the verdict gives, written only when it changed, then what it announces. */
async function report(deps: ScaleReconcilerDependencies, raw: KubeObject, verdict: ScaleVerdict): Promise<void> {
  const key = keyOf(raw);
  const previous = storedStatus(SCALE_STATUS.schema, raw);
  const next = nextStatus(previous, verdict, { generation: raw.metadata.generation, now: deps.now() });
  const operationStart = next.operation?.startedAt;
  deps.traitMetrics.report(key, { blocked: next.phase === 'Blocked', operationStartedAt: operationStart === undefined ? undefined : new Date(operationStart) });
  await inStep('ReportStatus', 'StatusWriteFailed', key, async () => {
    if (await writeStatusIfChanged(deps.client, SCALE_STATUS, key, previous, next)) await announce(deps, raw, subjectOf(verdict), announcements(previous, next));
  });
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
