// What the workload reconcile needs from the outside world, passed in by main.ts (tests can pass fakes).
import type { ZkEvent, WorkloadReason, workloadStatusSchema } from '@zk-oam/apis';
import type { EventDetails, KubeClient, KubeObject, Listers, RequeuePacer, WrittenStatuses } from '@zk-oam/runtime';
import type { EnsembleObservation, MemberAccess, MemberPod } from '@zk-oam/zookeeper';
import type { LatestObservations } from '../observations/index.js';
import type { RestoreDependencies } from '../restore/index.js';
import type { RenderedHashes } from './rendered-hashes.js';

/**
 * The informer caches the reconcile reads instead of the apiserver. `secrets` holds only the Secrets this controller
 * labelled as managed; a user's Secret is read from the API. `secretMetadata` holds every Secret's name, no data.
 */
export type WorkloadCaches = Listers<'workloads' | 'statefulSets' | 'configMaps' | 'services' | 'podDisruptionBudgets' | 'secrets' | 'secretMetadata' | 'pods'>;

export interface WorkloadReconcilerDependencies {
  readonly client: KubeClient;
  readonly caches: WorkloadCaches;
  /** Warning reasons are those docs/troubleshooting.md explains. */
  readonly recorder: { record(regarding: KubeObject, details: EventDetails<WorkloadReason>): Promise<void> };
  readonly bus: { publish(event: ZkEvent): Promise<void> };
  /** Whether monitoring.coreos.com/v1 ServiceMonitor and PrometheusRule are served (cached by the caller). */
  readonly monitoringServed: () => Promise<boolean>;
  /** Whether cert-manager.io/v1 Certificate is served (cached by the caller); asked only for a workload naming an issuer. */
  readonly certManagerServed: () => Promise<boolean>;
  readonly observe: (members: readonly MemberPod[], access: MemberAccess) => Promise<EnsembleObservation>;
  /** Where each look is kept for the observation request-reply (in memory), and forgotten with the workload. */
  readonly observations: Pick<LatestObservations, 'record' | 'forget'>;
  /** The applied hashes of each workload's last render (in memory), so that an unchanged input renders nothing. */
  readonly renderedHashes: Pick<RenderedHashes, 'of' | 'forget'>;
  /**
   * The statuses this process wrote that the cache may not show yet: the status is derived from the newer, so that a
   * reconcile right after the last one neither writes the same status again nor announces its facts twice.
   */
  readonly statuses: WrittenStatuses<typeof workloadStatusSchema>;
  readonly now: () => Date;
  /** The `source` of published NATS events. */
  readonly source: string;
  /** Requeue period while Ready (the observer's period) and while anything is still moving. */
  readonly periods: { readonly readyMs: number; readonly progressingMs: number };
  /** Spreads the timed looks of every workload of the process (runtime's RequeuePacer). */
  readonly pacer: Pick<RequeuePacer, 'delayMs' | 'release'>;
  /** The store and the session a restore (spec.restoreFrom) reads from and writes with. */
  readonly restore: RestoreDependencies;
}
