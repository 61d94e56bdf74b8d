// The rolling reconcile, a named pipeline: read -> unbind or bind -> observe -> plan -> lock -> write status -> delete
// -> announce. One step of the roll per reconcile; everything is re-derived from the API objects and ZooKeeper, so a
// controller killed at any line resumes without restarting a pod twice.
import { rollingStatusSchema, ZOOKEEPER_ROLLING, zookeeperRollingSchema, type ZookeeperRolling, type ZookeeperRollingStatus } from '@zk-oam/apis';
import { done, formatKey, readTrait, requeueAfter, sameStatus, storedStatus, type KubeObject, type ObjectKey, type ReconcileContext, type ReconcileResult, type Reconciler } from '@zk-oam/runtime';
import { downPods, planRollingStep, type PodToDelete } from '../plan/index.js';
import { announce, factsOf } from './announce.js';
import { deletePods } from './delete-pods.js';
import type { RollingReconcilerDependencies } from './dependencies.js';
import { inStep } from './errors.js';
import { settleLock } from './lock.js';
import { lockHolder } from './markers.js';
import { observeRoll } from './observe.js';
import { nextReconcile } from './requeue.js';
import { nextStatus } from './status.js';
import { reconfigure } from './reconfigure.js';
import { podsToDelete, reconfigToRun, type RollVerdict } from './verdict.js';
import { tlsOnlyRefusal } from './tls-only.js';
import { writeStatusIfCurrent } from './write-status.js';

/** The informer delivers the newer version within milliseconds and enqueues the trait; this is the fallback. */
const STALE_VIEW_RETRY_MS = 500;

export function rollingReconciler(deps: RollingReconcilerDependencies): Reconciler {
  return (key, context) => reconcileRolling(deps, key, context);
}

export async function reconcileRolling(deps: RollingReconcilerDependencies, key: ObjectKey, context: ReconcileContext): Promise<ReconcileResult> {
  const reading = readTrait({ traits: deps.caches.rollings, workloads: deps.caches.workloads }, zookeeperRollingSchema, ZOOKEEPER_ROLLING.kind, key);
  if (reading.kind === 'absent') {
    deps.pacer.release(formatKey(key));
    deps.traitMetrics.forget(key);
    return done;
  }
  if (reading.kind === 'invalid') {
    context.log.warn({ problems: reading.error.problems }, 'trait does not validate; waiting for a spec change');
    await deps.recorder.record(reading.raw, { type: 'Warning', reason: 'InvalidSpec', action: 'Validate', note: reading.error.message.slice(0, 1000) });
    return done;
  }
  const { raw, trait, workload } = reading;
  const stored = storedStatus(rollingStatusSchema, raw);
  if (deps.binding.needsUnbind(raw)) {
    // A handover under way is finished first: the former leader is not left out of the voters by a deleted trait.
    const finishing = stored?.handover !== undefined && workload !== undefined ? await finishHandover(deps, key, raw, trait, workload, stored) : undefined;
    if (finishing !== undefined) return settle(deps, { key, raw, trait, workload, stored }, finishing, context);
    await inStep('Unbind', key, () => unbind(deps, raw, workload, context));
    return done;
  }
  if (raw.metadata.deletionTimestamp !== undefined) return done;
  const verdict = await decide(deps, key, raw, trait, workload, stored, context);
  return settle(deps, { key, raw, trait, workload, stored }, verdict, context);
}

interface TraitInHand {
  readonly key: ObjectKey;
  readonly raw: KubeObject;
  readonly trait: ZookeeperRolling;
  readonly workload: KubeObject | undefined;
  readonly stored: ZookeeperRollingStatus | undefined;
}

/** Write the status the verdict gives, carry out its deletion or reconfig, announce, and say when to look again. */
async function settle(deps: RollingReconcilerDependencies, hand: TraitInHand, verdict: RollVerdict, context: ReconcileContext): Promise<ReconcileResult> {
  const { key, raw, trait, workload, stored } = hand;
  const next = nextStatus(verdict, { stored, generation: raw.metadata.generation, now: deps.now(), workload: trait.spec.workloadRef.name });
  const rolling = next.phase === 'Rolling' || next.phase === 'Blocked';
  deps.traitMetrics.report(key, { blocked: next.phase === 'Blocked', operationStartedAt: rolling && next.startedAt !== undefined ? new Date(next.startedAt) : undefined });
  const acting = podsToDelete(verdict).length > 0 || reconfigToRun(verdict) !== undefined;
  if (acting || !sameStatus(rollingStatusSchema, stored, next)) {
    const written = await inStep('WriteStatus', key, () => writeStatusIfCurrent(deps.client, key, next, raw.metadata.resourceVersion));
    if (written === 'stale') {
      context.log.debug({ resourceVersion: raw.metadata.resourceVersion }, 'the trait changed since it was read; planning again from the newer version');
      return requeueAfter(STALE_VIEW_RETRY_MS);
    }
  }
  const deleted = await carryOut(deps, key, verdict, workload, context);
  const boundWorkload = workload === undefined ? undefined : { name: workload.metadata.name, uid: workload.metadata.uid };
  await announce(deps, raw, boundWorkload, factsOf(verdict, stored, next, deleted));
  if (next.phase !== stored?.phase) context.log.info({ phase: next.phase, currentPod: next.currentPod, pending: next.pendingReplicas }, 'roll phase changed');
  return nextReconcile(verdict, deps.timing, deps.now(), (periodMs) => deps.pacer.delayMs(formatKey(key), periodMs));
}

/** Bind, observe, plan and settle the lock: what this reconcile concludes, nothing written but binding and lock. */
async function decide(
  deps: RollingReconcilerDependencies,
  key: ObjectKey,
  raw: KubeObject,
  trait: ZookeeperRolling,
  workload: KubeObject | undefined,
  stored: ZookeeperRollingStatus | undefined,
  context: ReconcileContext,
): Promise<RollVerdict> {
  const refusal = workload === undefined ? undefined : tlsOnlyRefusal(workload, trait.spec.leaderHandover);
  if (refusal !== undefined) return { kind: 'Unbound', reason: 'TlsOnlyUnsupported', message: refusal };
  const binding = await inStep('Bind', key, () => deps.binding.bind(raw, trait.spec.workloadRef, workload, context.log));
  if (binding.kind === 'Problem') return { kind: 'Unbound', reason: binding.reason, message: binding.message };
  return planned(deps, key, raw, trait.spec, binding.workload, stored);
}

/** A deleted trait with a handover under way: its next handover step, paused otherwise; undefined once it is over. */
async function finishHandover(
  deps: RollingReconcilerDependencies,
  key: ObjectKey,
  raw: KubeObject,
  trait: ZookeeperRolling,
  workload: KubeObject,
  stored: ZookeeperRollingStatus,
): Promise<RollVerdict | undefined> {
  const verdict = await planned(deps, key, raw, { ...trait.spec, paused: true }, workload, stored);
  return verdict.kind === 'Planned' && verdict.plan.handover !== undefined ? verdict : undefined;
}

/** Observe, plan and settle the lock. */
async function planned(
  deps: RollingReconcilerDependencies,
  key: ObjectKey,
  raw: KubeObject,
  spec: ZookeeperRolling['spec'],
  workload: KubeObject,
  stored: ZookeeperRollingStatus | undefined,
): Promise<RollVerdict> {
  const observed = await inStep('Observe', key, () => observeRoll(deps, key.namespace, workload));
  if (observed.kind === 'NoStatefulSet') return observed;
  const { statefulSet, pods, ensemble, committed, zooConfig } = observed;
  const input = { spec, status: stored, statefulSet, pods, ensemble, committed, zooConfig, now: deps.now() };
  const plan = planRollingStep(input);
  const lock = await inStep('Lock', key, () => settleLock(deps, raw, workload, plan, stored));
  return { kind: 'Planned', plan, statefulSet, down: downPods(input), ensemble, lock };
}

/** The reconfig or deletion the verdict asks for, when this roll holds the lock; returns the pods it deleted. */
async function carryOut(
  deps: RollingReconcilerDependencies,
  key: ObjectKey,
  verdict: RollVerdict,
  workload: KubeObject | undefined,
  context: ReconcileContext,
): Promise<PodToDelete[]> {
  const reconfig = reconfigToRun(verdict);
  if (reconfig !== undefined && workload !== undefined && verdict.kind === 'Planned') {
    const outcome = await inStep('Reconfigure', key, () => reconfigure(deps, workload, verdict.ensemble, reconfig));
    const note = outcome.kind === 'unsettled' ? outcome.note : undefined;
    context.log.info({ step: reconfig.kind, member: reconfig.server.id, outcome: outcome.kind, note }, 'leader handover reconfig');
    return [];
  }
  const pods = podsToDelete(verdict);
  if (pods.length === 0) return [];
  const deleted = await inStep('DeletePods', key, () => deletePods(deps.client, key.namespace, pods));
  context.log.info({ pods: deleted.map((pod) => pod.name), leader: deleted.some((pod) => pod.leader) }, 'deleted pods to restart them');
  return deleted;
}

/** The annotation goes first (the StatefulSet returns to RollingUpdate), the lock if this roll held it, then the finalizer. */
async function unbind(deps: RollingReconcilerDependencies, raw: KubeObject, workload: KubeObject | undefined, context: ReconcileContext): Promise<void> {
  if (workload !== undefined) await deps.lockFor(workload).release(lockHolder(raw.metadata.name));
  await deps.binding.unbind(raw, workload, context.log);
}

