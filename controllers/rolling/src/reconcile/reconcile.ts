// The rolling reconcile, a named pipeline: read -> (unbind) -> decide (bind, observe, plan, lock) -> write status ->
// act (delete or reconfigure) -> announce. One step of the roll per reconcile; everything is re-derived from the API
// objects and ZooKeeper, so a controller killed at any line resumes without restarting a pod twice. A trait that does
// not validate goes straight to the status: Ready says so, the rest of it stays, and nothing else is done until its
// spec changes.
import { rollingStatusSchema, ZOOKEEPER_ROLLING, zookeeperRollingSchema } from '@zk-oam/apis';
import {
  done,
  forgetTrait,
  formatKey,
  invalidTraitVerdict,
  readTrait,
  requeueAfter,
  sameStatus,
  storedStatus,
  workloadNamedBy,
  type KubeObject,
  type ObjectKey,
  type ReconcileContext,
  type ReconcileResult,
  type Reconciler,
} from '@zk-oam/runtime';
import { act } from './act.js';
import { announce, factsOf } from './announce.js';
import { decide, finishHandover, type TraitInHand } from './decide.js';
import type { RollingReconcilerDependencies } from './dependencies.js';
import { inStep } from './errors.js';
import { releaseLock } from './lock.js';
import { nextReconcile } from './requeue.js';
import { nextStatus } from './status.js';
import { podsToDelete, reconfigToRun, type RollingVerdict } from './verdict.js';
import { writeStatusIfCurrent } from './write-status.js';

/** The informer delivers the newer version within milliseconds and enqueues the trait; this is the fallback. */
const STALE_VIEW_RETRY_MS = 500;

/** A failed step is reported on the trait by the kit (reportFailures), which then backs off. */
export function rollingReconciler(deps: RollingReconcilerDependencies): Reconciler {
  return (key, context) => reconcileRolling(deps, key, context);
}

export async function reconcileRolling(deps: RollingReconcilerDependencies, key: ObjectKey, context: ReconcileContext): Promise<ReconcileResult> {
  const reading = readTrait(deps.caches, zookeeperRollingSchema, ZOOKEEPER_ROLLING.kind, key);
  if (reading.kind === 'absent') return forgetTrait(deps, key);
  if (reading.kind === 'invalid') {
    const hand = { key, raw: reading.raw, workload: undefined, stored: storedStatus(rollingStatusSchema, reading.raw) };
    return settle(deps, hand, invalidTraitVerdict(reading.error, context.log), context);
  }
  const { raw, trait, workload } = reading;
  const hand: TraitInHand = { key, raw, workload, stored: storedStatus(rollingStatusSchema, raw) };
  if (deps.binding.needsUnbind(raw)) {
    // A handover under way is finished first: the former leader is not left out of the voters by a deleted trait.
    const finishing = hand.stored?.handover !== undefined && workload !== undefined ? await finishHandover(deps, { ...hand, workload }, trait) : undefined;
    if (finishing !== undefined) return settle(deps, hand, finishing, context);
    await inStep('Unbind', 'BindingFailed', key, () => unbind(deps, raw, workload, context));
    return done;
  }
  if (raw.metadata.deletionTimestamp !== undefined) return done;
  const verdict = await decide(deps, hand, trait, context);
  return settle(deps, hand, verdict, context);
}

/** Write the status the verdict gives, carry out its deletion or reconfig, announce, and say when to look again. */
async function settle(deps: RollingReconcilerDependencies, hand: TraitInHand, verdict: RollingVerdict, context: ReconcileContext): Promise<ReconcileResult> {
  const { key, raw, workload, stored } = hand;
  // The workload's name only words the conditions; read loosely, it is there for a trait that does not validate too.
  const next = nextStatus(verdict, { stored, generation: raw.metadata.generation, now: deps.now(), workload: workloadNamedBy(raw) ?? '' });
  const rolling = next.phase === 'Rolling' || next.phase === 'Blocked';
  // A trait that does not validate waits for a person, as a blocked one does.
  const blocked = verdict.kind === 'Invalid' || next.phase === 'Blocked';
  deps.traitMetrics.report(key, { blocked, operationStartedAt: rolling && next.startedAt !== undefined ? new Date(next.startedAt) : undefined });
  const acting = podsToDelete(verdict).length > 0 || reconfigToRun(verdict) !== undefined;
  if (acting || !sameStatus(rollingStatusSchema, stored, next)) {
    const written = await inStep('ReportStatus', 'StatusWriteFailed', key, () => writeStatusIfCurrent(deps.client, key, next, raw.metadata.resourceVersion));
    if (written === 'stale') {
      context.log.debug({ resourceVersion: raw.metadata.resourceVersion }, 'the trait changed since it was read; planning again from the newer version');
      return requeueAfter(STALE_VIEW_RETRY_MS);
    }
  }
  const deleted = await act(deps, key, verdict, workload, context.log);
  const boundWorkload = workload === undefined ? undefined : { name: workload.metadata.name, uid: workload.metadata.uid };
  await announce(deps, raw, boundWorkload, factsOf(verdict, stored, next, deleted));
  if (next.phase !== stored?.phase) context.log.info({ phase: next.phase, currentPod: next.currentPod, pending: next.pendingReplicas }, 'roll phase changed');
  return nextReconcile(verdict, deps.timing, deps.now(), (periodMs) => deps.pacer.delayMs(formatKey(key), periodMs));
}

/** The trait is going: the lock is released if it holds it (the roll stops here), then it unbinds: the annotation goes (the StatefulSet returns to RollingUpdate), then the finalizer. */
async function unbind(deps: RollingReconcilerDependencies, raw: KubeObject, workload: KubeObject | undefined, context: ReconcileContext): Promise<void> {
  if (workload !== undefined) await releaseLock(deps, raw, workload);
  await deps.binding.unbind(raw, workload, context.log);
}
