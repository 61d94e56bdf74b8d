// What the rolling reconcile needs from the outside world, passed in by main.ts (tests can pass fakes): what every
// trait controller's reconcile takes (runtime's TraitReconcilerDependencies), and the members' sessions.
import type { RollingReason } from '@zk-oam/apis';
import type { TraitCaches, TraitReconcilerDependencies, TraitTiming } from '@zk-oam/runtime';
import type { AdminConnector, EnsembleObservation, MemberAccess, MemberPod } from '@zk-oam/zookeeper';

/** The StatefulSet and pods are read from the apiserver instead (client): a plan must never see a deletion late. */
export type RollingCaches = TraitCaches;

export interface RollingTiming extends TraitTiming {
  /** How soon after a deletion it looks again (the pod should be Terminating by then). */
  readonly afterDeleteMs: number;
}

/** Its lock is the workload's disruption lock (Lease `<workload>-disruption`), shared with the scale controller. */
export interface RollingReconcilerDependencies extends TraitReconcilerDependencies<RollingCaches, RollingReason, RollingTiming> {
  readonly observe: (members: readonly MemberPod[], access: MemberAccess) => Promise<EnsembleObservation>;
  /** Opens a superuser session on the given members, over TLS on a TLS-only ensemble, for the reconfigs of a leader handover. */
  readonly connectAdmin: AdminConnector;
}
