// What the reconcile of every trait controller takes from its process (passed in by main.ts, tests can pass fakes):
// one trait bound to one workload, changed under the workload's lock, its state kept in metrics and its facts
// published. What only one controller needs (how it reaches ZooKeeper, its own periods) it declares beside these.
import type { ZkEvent } from '@zk-oam/apis';
import type { KubeClient } from '../kube/client.js';
import type { KubeObject } from '../kube/object.js';
import type { ObjectLock } from '../lock/object-lock.js';
import type { RequeuePacer } from '../queue/requeue-pacer.js';
import type { EventDetails } from '../recorder/event-recorder.js';
import type { TraitCaches } from './read-trait.js';
import type { TraitBinding } from './trait-binding.js';
import type { TraitStateMetrics } from './trait-state-metrics.js';

export interface TraitTiming {
  /** Requeue while a step is under way or awaited (well within the lock's duration). */
  readonly stepMs: number;
  /** Requeue while idle or blocked: a look now and then besides the watches. */
  readonly idleMs: number;
  /** Duration of the workload's lock; it is renewed at every reconcile of an operation under way. */
  readonly lockDurationSeconds: number;
}

/** `LockUse` is what the reconcile does with the workload's lock, so a test's fake lock does that much only. */
export interface TraitReconcilerDependencies<
  Caches extends TraitCaches,
  WarningReason extends string,
  Timing extends TraitTiming,
  LockUse extends keyof ObjectLock = 'tryAcquire' | 'release',
> {
  readonly client: Pick<KubeClient, 'request'>;
  /** The informer caches the reconcile reads instead of the apiserver: at least the traits and their workloads. */
  readonly caches: Caches;
  readonly binding: Pick<TraitBinding, 'bind' | 'needsUnbind' | 'unbind'>;
  /** Blocked and the operation's start, for the stuck-operation alert. */
  readonly traitMetrics: Pick<TraitStateMetrics, 'report' | 'forget'>;
  /** The lock of one workload, shared with every other controller that disrupts it. */
  readonly lockOf: (workload: KubeObject) => Pick<ObjectLock, LockUse>;
  /** Warning reasons are those docs/troubleshooting.md explains. */
  readonly recorder: { record(regarding: KubeObject, details: EventDetails<WarningReason>): Promise<void> };
  readonly bus: { publish(event: ZkEvent): Promise<void> };
  readonly now: () => Date;
  /** The `source` of published NATS events. */
  readonly source: string;
  readonly timing: Timing;
  /** Spreads the idle looks of every trait of the process (runtime's RequeuePacer); steps under way are not paced. */
  readonly pacer: Pick<RequeuePacer, 'delayMs' | 'release'>;
}
