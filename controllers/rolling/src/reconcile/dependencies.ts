// What the rolling reconcile needs from the outside world, passed in by main.ts (tests can pass fakes).
import type { ZkEvent, RollingReason } from '@zk-oam/apis';
import type { EventDetails, KubeClient, KubeObject, Lister, ObjectLock, TraitBinding, TraitStateMetrics, RequeuePacer } from '@zk-oam/runtime';
import type { AdminConnector, EnsembleObservation, MemberAccess, MemberPod } from '@zk-oam/zookeeper';

/** The informer caches the reconcile reads; the StatefulSet and pods are read from the apiserver instead (client). */
export interface RollingCaches {
  readonly traits: Lister<KubeObject>;
  readonly workloads: Lister<KubeObject>;
}

export interface RollingTiming {
  /** How often a roll in progress looks again (waits, lock busy). */
  readonly stepMs: number;
  /** How soon after a deletion it looks again (the pod should be Terminating by then). */
  readonly afterDeleteMs: number;
  /** How often an idle or completed trait is looked at without a change. */
  readonly idleMs: number;
  /** Duration of the disruption lock; it is renewed at every reconcile of a roll in progress. */
  readonly lockDurationSeconds: number;
}

export interface RollingReconcilerDependencies {
  /** Reads of the StatefulSet and pods go to the apiserver, not the caches: a plan must never see a deletion late. */
  readonly client: Pick<KubeClient, 'request'>;
  readonly caches: RollingCaches;
  readonly binding: Pick<TraitBinding, 'bind' | 'needsUnbind' | 'unbind'>;
  /** Blocked and the roll's start, for the stuck-roll alert. */
  readonly traitMetrics: Pick<TraitStateMetrics, 'report' | 'forget'>;
  /** The disruption lock of one workload (Lease `<workload>-disruption` in its namespace), shared with the scale controller. */
  readonly lockOf: (workload: KubeObject) => Pick<ObjectLock, 'tryAcquire' | 'release'>;
  /** Warning reasons are those docs/troubleshooting.md explains. */
  readonly recorder: { record(regarding: KubeObject, details: EventDetails<RollingReason>): Promise<void> };
  readonly bus: { publish(event: ZkEvent): Promise<void> };
  readonly observe: (members: readonly MemberPod[], access: MemberAccess) => Promise<EnsembleObservation>;
  /** Opens a superuser session on the given members, over TLS on a TLS-only ensemble, for the reconfigs of a leader handover. */
  readonly connectAdmin: AdminConnector;
  readonly now: () => Date;
  /** The `source` of published NATS events. */
  readonly source: string;
  readonly timing: RollingTiming;
  /** Spreads the idle looks of every trait of the process (runtime's RequeuePacer); steps under way are not paced. */
  readonly pacer: Pick<RequeuePacer, 'delayMs' | 'release'>;
}
