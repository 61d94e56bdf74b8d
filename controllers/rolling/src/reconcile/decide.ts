// Step: decide. Bind, observe, plan and settle the lock: what this reconcile concludes, with nothing written but the
// binding and the lock.
import type { ZookeeperRolling, ZookeeperRollingStatus } from '@zk-oam/apis';
import type { KubeObject, ObjectKey, ReconcileContext } from '@zk-oam/runtime';
import { downPods, planRollingStep } from '../plan/index.js';
import type { RollingReconcilerDependencies } from './dependencies.js';
import { inStep } from './errors.js';
import { settleLock } from './lock.js';
import { observeRoll } from './observe.js';
import { tlsOnlyRefusal } from './tls-only.js';
import type { RollingVerdict } from './verdict.js';

/** A trait as read: the object, its stored status, and the workload it names, if any. */
export interface TraitInHand {
  readonly key: ObjectKey;
  readonly raw: KubeObject;
  readonly workload: KubeObject | undefined;
  readonly stored: ZookeeperRollingStatus | undefined;
}

export async function decide(deps: RollingReconcilerDependencies, hand: TraitInHand, trait: ZookeeperRolling, context: ReconcileContext): Promise<RollingVerdict> {
  const { key, raw, workload } = hand;
  const refusal = workload === undefined ? undefined : tlsOnlyRefusal(workload, trait.spec.leaderHandover);
  if (refusal !== undefined) return { kind: 'Unbound', reason: 'TlsOnlyUnsupported', message: refusal };
  const binding = await inStep('Bind', 'BindingFailed', key, () => deps.binding.bind(raw, trait.spec.workloadRef, workload, context.log));
  if (binding.kind === 'Problem') return { kind: 'Unbound', reason: binding.reason, message: binding.message };
  return planned(deps, { ...hand, workload: binding.workload }, trait.spec);
}

/** A deleted trait with a handover under way: its next handover step, paused otherwise; undefined once it is over. */
export async function finishHandover(
  deps: RollingReconcilerDependencies,
  hand: TraitInHand & { workload: KubeObject },
  trait: ZookeeperRolling,
): Promise<RollingVerdict | undefined> {
  const verdict = await planned(deps, hand, { ...trait.spec, paused: true });
  return verdict.kind === 'Planned' && verdict.plan.handover !== undefined ? verdict : undefined;
}

/** Observe, plan and settle the lock. */
async function planned(
  deps: RollingReconcilerDependencies,
  hand: TraitInHand & { workload: KubeObject },
  spec: ZookeeperRolling['spec'],
): Promise<RollingVerdict> {
  const { key, raw, workload, stored } = hand;
  const observed = await inStep('Observe', 'ObservationFailed', key, () => observeRoll(deps, key.namespace, workload));
  if (observed.kind === 'NoStatefulSet') return observed;
  const { statefulSet, pods, ensemble, committed, zooConfig } = observed;
  const input = { spec, status: stored, statefulSet, pods, ensemble, committed, zooConfig, now: deps.now() };
  const plan = planRollingStep(input);
  const lock = await inStep('Lock', 'LockFailed', key, () => settleLock(deps, raw, workload, plan, stored));
  return { kind: 'Planned', plan, statefulSet, down: downPods(input), ensemble, lock };
}
