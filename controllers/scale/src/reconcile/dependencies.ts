// What the scale reconcile needs from the outside world, passed in by main.ts (tests can pass fakes): what every trait
// controller's reconcile takes (runtime's TraitReconcilerDependencies), and the members' objects and sessions.
import type { ScaleReason } from '@zk-oam/apis';
import type { TraitControllerCaches, TraitReconcilerDependencies, TraitTiming } from '@zk-oam/runtime';
import type { AdminConnector, EnsembleObservation, MemberPod } from '@zk-oam/zookeeper';

/** `pods` and `volumes` are the members' (MEMBER_SELECTOR). */
export type ScaleCaches = TraitControllerCaches<'statefulSets' | 'pods' | 'volumes'>;

export type ScaleTiming = TraitTiming;

/** Its lock is the workload's disruption lock (Lease `<workload>-disruption`), shared with the rolling controller. */
export interface ScaleReconcilerDependencies
  extends TraitReconcilerDependencies<ScaleCaches, ScaleReason, ScaleTiming, 'tryAcquire' | 'release' | 'inspect'> {
  readonly observe: (members: readonly MemberPod[]) => Promise<EnsembleObservation>;
  /** Opens a superuser session on the given members, reached as `access` says (over TLS whenever there is a secure port). */
  readonly connectAdmin: AdminConnector;
}
