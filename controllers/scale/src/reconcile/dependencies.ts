// What the scale reconcile needs from the outside world, passed in by main.ts (tests can pass fakes).
import type { ZkEvent, ScaleReason } from '@zk-oam/apis';
import type { EventDetails, KubeClient, KubeObject, Lister, LockOwner, ObjectLock, TraitBinding, TraitStateMetrics, RequeuePacer } from '@zk-oam/runtime';
import type { AdminConnector, EnsembleObservation, MemberPod } from '@zk-oam/zookeeper';

/** The informer caches the reconcile reads instead of the apiserver. */
export interface ScaleCaches {
  readonly traits: Lister<KubeObject>;
  readonly workloads: Lister<KubeObject>;
  readonly statefulSets: Lister<KubeObject>;
  /** Member pods (MEMBER_SELECTOR). */
  readonly pods: Lister<KubeObject>;
  /** Member data volumes (MEMBER_SELECTOR). */
  readonly volumes: Lister<KubeObject>;
}

export interface ScaleReconcilerDependencies {
  readonly client: Pick<KubeClient, 'request'>;
  readonly caches: ScaleCaches;
  /** Warning reasons are those docs/troubleshooting.md explains. */
  readonly recorder: { record(regarding: KubeObject, details: EventDetails<ScaleReason>): Promise<void> };
  readonly bus: { publish(event: ZkEvent): Promise<void> };
  readonly binding: Pick<TraitBinding, 'bind' | 'needsUnbind' | 'unbind'>;
  /** Blocked and the operation's start, for the stuck-scale alert. */
  readonly traitMetrics: Pick<TraitStateMetrics, 'report' | 'forget'>;
  /** The per-workload disruption lock (Lease `leaseName`, disruptionLeaseName's), shared with the rolling controller. */
  readonly lockOf: (namespace: string, owner: LockOwner, leaseName: string) => Pick<ObjectLock, 'tryAcquire' | 'release' | 'inspect'>;
  readonly observe: (members: readonly MemberPod[]) => Promise<EnsembleObservation>;
  /** Opens a superuser session on the given members, reached as `access` says (over TLS whenever there is a secure port). */
  readonly connectAdmin: AdminConnector;
  readonly now: () => Date;
  /** The `source` of published NATS events. */
  readonly source: string;
  readonly timing: {
    /** Requeue while a step is under way (well within the lock's duration). */
    readonly stepMs: number;
    /** Requeue while idle or blocked: a look now and then besides the watches. */
    readonly idleMs: number;
    readonly lockDurationSeconds: number;
  };
  /** Spreads the idle looks of every trait of the process (runtime's RequeuePacer); steps under way are not paced. */
  readonly pacer: Pick<RequeuePacer, 'delayMs' | 'release'>;
}
