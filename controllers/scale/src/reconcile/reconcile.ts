// The scale reconcile, a named pipeline: read -> (unbind) -> bind -> observe and plan -> lock -> act -> report.
// Every step re-reads state, and the plan is derived from observation alone, so a controller killed at any line
// resumes where the world is: it neither repeats nor skips a reconfig.
import { hasPlainClientPort, ResourceValidationError, ZOOKEEPER_SCALE, zookeeperScaleSchema, type ZookeeperScale, type ZookeeperWorkload } from '@zk-oam/apis';
import { done, formatKey, keyOf, readTrait, requeueAfter, storedStatus, type KubeObject, type ObjectKey, type ReconcileContext, type ReconcileResult, type Reconciler } from '@zk-oam/runtime';
import { changesWorld, planScale, type ScalePlan, type ScalePlanInput, type WorldChange } from '../plan/index.js';
import { carryOut } from './act.js';
import type { ScaleReconcilerDependencies } from './dependencies.js';
import { disruptionLock } from './disruption-lock.js';
import { inStep } from './errors.js';
import { observeWorld } from './observe.js';
import { parseWorkload } from './read-objects.js';
import { reportStatus, SCALE_STATUS } from './report-status.js';
import { nextStatus, type Finding } from './status.js';

interface Bound {
  key: ObjectKey;
  raw: KubeObject;
  trait: ZookeeperScale;
  workload: ZookeeperWorkload;
}

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
  const { raw, trait } = reading;
  if (deps.binding.needsUnbind(raw)) {
    await inStep('Unbind', 'BindingFailed', key, () => unbind(deps, raw, trait, reading.workload, context));
    return done;
  }
  if (raw.metadata.deletionTimestamp !== undefined) return done;
  const binding = await inStep('Bind', 'BindingFailed', key, () => deps.binding.bind(raw, trait.spec.workloadRef, reading.workload, context.log));
  if (binding.kind === 'Problem') {
    await report(deps, { raw, trait }, undefined, { kind: 'unbound', reason: binding.reason, message: binding.message });
    return idleLook(deps, key);
  }
  const workload = parseWorkload(binding.workload);
  if (workload instanceof ResourceValidationError) {
    await report(deps, { raw, trait }, undefined, { kind: 'unbound', reason: 'WorkloadInvalid', message: workload.message });
    return idleLook(deps, key);
  }
  if (!hasPlainClientPort(workload.spec.tls)) {
    await report(deps, { raw, trait }, undefined, { kind: 'unbound', reason: 'TlsOnlyUnsupported', message: tlsOnlyMessage(workload) });
    return idleLook(deps, key);
  }
  return scaleTowardsTarget(deps, { key, raw, trait, workload }, context);
}

/** Observe, plan one step, hold the lock for it, carry it out, report. */
async function scaleTowardsTarget(deps: ScaleReconcilerDependencies, bound: Bound, context: ReconcileContext): Promise<ReconcileResult> {
  const { key, trait, workload } = bound;
  const observation = await inStep('Observe', 'ObservationFailed', key, () => observeWorld(deps, trait, workload));
  const plan = planScale(observation.input);
  const selector = observation.statefulSet?.selector;
  const lock = disruptionLock(deps, workload, trait.metadata.name);
  const log = context.log.child({ workload: workload.metadata.name, action: plan.action.kind, step: plan.step });
  if (plan.action.kind === 'Done') {
    if (await inStep('Lock', 'LockFailed', key, () => lock.release())) log.info('scaling done; disruption lock released');
    await report(deps, bound, workload, { kind: 'planned', plan, selector });
    return idleLook(deps, key);
  }
  if (!needsLock(plan, bound.trait)) {
    // Another operation (a roll, a handover) is changing the ensemble: what this plan waits or blocks for is its doing.
    const other = await inStep('Lock', 'LockFailed', key, () => lock.heldElsewhere());
    if (other !== undefined) {
      log.debug({ holder: other.holder }, 'another operation holds the disruption lock; waiting for it');
      await report(deps, bound, workload, { kind: 'lockBusy', plan, selector, lock: other, lease: lock.lease });
    } else {
      await report(deps, bound, workload, { kind: 'planned', plan, selector });
    }
    return requeueAfter(deps.timing.stepMs);
  }
  const held = await inStep('Lock', 'LockFailed', key, () => lock.hold(operationNote(workload, plan.target)));
  if (!held.held) {
    log.info({ holder: held.holder, since: held.since }, 'disruption lock busy; waiting');
    await report(deps, bound, workload, { kind: 'lockBusy', plan, selector, lock: held, lease: lock.lease });
    return requeueAfter(deps.timing.stepMs);
  }
  if (changesWorld(plan.action)) await act(deps, bound, observation.input, plan.action, log);
  else log.debug({ action: plan.action }, 'nothing to do but wait');
  await report(deps, bound, workload, { kind: 'planned', plan, selector });
  return requeueAfter(deps.timing.stepMs);
}

async function act(
  deps: ScaleReconcilerDependencies,
  bound: Bound,
  input: ScalePlanInput,
  action: WorldChange,
  log: ReconcileContext['log'],
): Promise<void> {
  const outcome = await carryOut(deps, { key: bound.key, workload: bound.workload, input }, action);
  if (outcome.kind === 'unsettled') {
    log.warn({ note: outcome.note }, 'step outcome unsettled; observing again');
    return;
  }
  log.info({ note: outcome.note }, 'step carried out');
  await deps.recorder.record(bound.raw, { type: 'Normal', reason: action.kind, action: action.kind, note: outcome.note });
}

/**
 * The lock is held from the first step of an operation until Done, waits and blocks included. A wait or block before
 * any operation started (an ensemble still bootstrapping, a member down before a scale-down) leaves it to others.
 */
function needsLock(plan: ScalePlan, trait: ZookeeperScale): boolean {
  return changesWorld(plan.action) || plan.step !== undefined || trait.status?.operation !== undefined;
}

function operationNote(workload: ZookeeperWorkload, target: number): string {
  return `scale ${workload.metadata.name} to ${target} members`;
}

async function report(
  deps: ScaleReconcilerDependencies,
  bound: Pick<Bound, 'raw' | 'trait'>,
  workload: ZookeeperWorkload | undefined,
  finding: Finding,
): Promise<void> {
  const previous = storedStatus(SCALE_STATUS.schema, bound.raw);
  const next = nextStatus(previous, finding, { generation: bound.trait.metadata.generation, now: deps.now() });
  const operationStart = next.operation?.startedAt;
  deps.traitMetrics.report(keyOf(bound.raw), { blocked: next.phase === 'Blocked', operationStartedAt: operationStart === undefined ? undefined : new Date(operationStart) });
  const subject = workload === undefined ? undefined : { namespace: workload.metadata.namespace ?? '', name: workload.metadata.name, uid: workload.metadata.uid };
  await inStep('ReportStatus', 'StatusWriteFailed', { namespace: bound.raw.metadata.namespace ?? '', name: bound.raw.metadata.name }, () =>
    reportStatus(deps, bound.raw, subject, previous, next),
  );
}

/** The trait is going: release the lock if it holds it (the operation stops here), then unbind. */
async function unbind(
  deps: ScaleReconcilerDependencies,
  raw: KubeObject,
  trait: ZookeeperScale,
  workloadRaw: KubeObject | undefined,
  context: ReconcileContext,
): Promise<void> {
  const workload = workloadRaw === undefined ? undefined : parseWorkload(workloadRaw);
  if (workload !== undefined && !(workload instanceof ResourceValidationError)) {
    await disruptionLock(deps, workload, trait.metadata.name).release();
  }
  await deps.binding.unbind(raw, workloadRaw, context.log);
}

/** The next look at a trait with nothing under way, paced with every other trait of the process. */
function idleLook(deps: ScaleReconcilerDependencies, key: ObjectKey): ReconcileResult {
  return requeueAfter(deps.pacer.delayMs(formatKey(key), deps.timing.idleMs));
}

/** ZooKeeper refuses a joining server line without a client address; on a TLS-only ensemble that would open a plain port. */
function tlsOnlyMessage(workload: ZookeeperWorkload): string {
  return (
    `ZookeeperWorkload ${workload.metadata.name} serves clients over TLS only (spec.tls.client Only); scaling it is not ` +
    'supported yet: ZooKeeper adds a member by reconfig only with a client address in its server line, which would open a ' +
    'plain client port on it'
  );
}
