// What the scale reconcile needs from the outside world, passed in by main.ts (tests can pass fakes).
import type { ZkEvent, ScaleReason } from '@zk-oam/apis';
import type { EventDetails, KubeClient, KubeObject, Lister, ObjectLock, TraitBinding, TraitStateMetrics, RequeuePacer } from '@zk-oam/runtime';
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

export interface ScaleTiming {
  /** Requeue while a step is under way or awaited (well within the lock's duration). */
  readonly stepMs: number;
  /** Requeue while idle or blocked: a look now and then besides the watches. */
  readonly idleMs: number;
  /** Duration of the disruption lock; it is renewed at every reconcile of an operation under way. */
  readonly lockDurationSeconds: number;
}

export interface ScaleReconcilerDependencies {
  readonly client: Pick<KubeClient, 'request'>;
  readonly caches: ScaleCaches;
  readonly binding: Pick<TraitBinding, 'bind' | 'needsUnbind' | 'unbind'>;
  /** Blocked and the operation's start, for the stuck-scale alert. */
  readonly traitMetrics: Pick<TraitStateMetrics, 'report' | 'forget'>;
  /** The disruption lock of one workload (Lease `<workload>-disruption` in its namespace), shared with the rolling controller. */
  readonly lockOf: (workload: KubeObject) => Pick<ObjectLock, 'tryAcquire' | 'release' | 'inspect'>;
  /** Warning reasons are those docs/troubleshooting.md explains. */
  readonly recorder: { record(regarding: KubeObject, details: EventDetails<ScaleReason>): Promise<void> };
  readonly bus: { publish(event: ZkEvent): Promise<void> };
  readonly observe: (members: readonly MemberPod[]) => Promise<EnsembleObservation>;
  /** Opens a superuser session on the given members, reached as `access` says (over TLS whenever there is a secure port). */
  readonly connectAdmin: AdminConnector;
  readonly now: () => Date;
  /** The `source` of published NATS events. */
  readonly source: string;
  readonly timing: ScaleTiming;
  /** Spreads the idle looks of every trait of the process (runtime's RequeuePacer); steps under way are not paced. */
  readonly pacer: Pick<RequeuePacer, 'delayMs' | 'release'>;
}
