// Step: decide. Bind, read the bound workload, observe, plan and settle the lock: what this reconcile concludes, with
// nothing written but the binding and the lock.
import { disruptionLeaseName, ResourceValidationError, zookeeperWorkloadSchema, type ZookeeperScale } from '@zk-oam/apis';
import { formatKey, keyOf, parseObject, type KubeObject, type ObjectKey, type ReconcileContext } from '@zk-oam/runtime';
import { planScale } from '../plan/index.js';
import type { ScaleReconcilerDependencies } from './dependencies.js';
import { inStep } from './errors.js';
import { settleLock } from './lock.js';
import { observeWorld } from './observe.js';
import { tlsOnlyRefusal } from './tls-only.js';
import type { ScaleVerdict } from './verdict.js';

/** `workloadObject`: the workload the trait names, from the cache; undefined when there is none. */
export async function decide(
  deps: ScaleReconcilerDependencies,
  key: ObjectKey,
  raw: KubeObject,
  trait: ZookeeperScale,
  workloadObject: KubeObject | undefined,
  context: ReconcileContext,
): Promise<ScaleVerdict> {
  const binding = await inStep('Bind', 'BindingFailed', key, () => deps.binding.bind(raw, trait.spec.workloadRef, workloadObject, context.log));
  if (binding.kind === 'Problem') return { kind: 'Unbound', reason: binding.reason, message: binding.message };
  // A workload that does not validate is its own controller's to report; this trait cannot plan for it.
  const workload = parseObject(zookeeperWorkloadSchema, binding.workload, `ZookeeperWorkload ${formatKey(keyOf(binding.workload))}`);
  if (workload instanceof ResourceValidationError) return { kind: 'Unbound', reason: 'WorkloadInvalid', message: workload.message };
  const refusal = tlsOnlyRefusal(workload);
  if (refusal !== undefined) return { kind: 'Unbound', reason: 'TlsOnlyUnsupported', message: refusal };
  const observation = await inStep('Observe', 'ObservationFailed', key, () => observeWorld(deps, trait, workload));
  const plan = planScale(observation.input);
  const lock = await inStep('Lock', 'LockFailed', key, () => settleLock(deps, trait, workload, plan));
  const lease = disruptionLeaseName(workload.metadata.name);
  return { kind: 'Planned', plan, selector: observation.statefulSet?.selector, lease, lock, workload, input: observation.input };
}
