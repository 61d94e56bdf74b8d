// What the console shows of an ensemble: a summary for lists, and the detail of one ensemble, from its
// ZookeeperWorkload (status as the workload controller reports it), its traits and its recent Events.
import type { Condition, Member, ZookeeperWorkload } from '@zk-oam/apis';
import type { EventView } from './events.js';
import { traitSummary, type TraitDetail, type TraitSummary } from './traits.js';
import type { MemberWithLag, MembersLag, ZxidView } from './zxid-lag.js';

/** What one workload says of its ensemble, without its traits (what the cluster stream sends per change). */
export interface EnsembleState {
  readonly cluster: string;
  readonly namespace: string;
  readonly name: string;
  /** The workload's phase; Pending until its controller has written a status. */
  readonly phase: string;
  /** Members asked for (spec.replicas) and members serving and synced (status.readyReplicas). */
  readonly members: { readonly desired: number; readonly ready: number };
  readonly leader: string | undefined;
  readonly createdAt: string | undefined;
}

export interface EnsembleSummary extends EnsembleState {
  readonly traits: TraitSummary[];
}

export interface EnsembleDetail extends EnsembleState {
  readonly generation: number | undefined;
  readonly observedGeneration: number | undefined;
  readonly resourceVersion: string | undefined;
  /**
   * Each member as the workload's status reports it: pod, myid, role, synced, voting; in the info also its zxid and
   * zxidLag from the workload controller's latest look (the streams leave them out: they are not in the status).
   */
  readonly memberStatus: Member[] | MemberWithLag[];
  /** In the info: whether the lags could be had, as of when, or why not. */
  readonly zxid?: ZxidView;
  readonly conditions: Condition[];
  /** The committed ZooKeeper configuration as the status reports it. */
  readonly committedConfig: {
    readonly version: string | undefined;
    readonly members: number | undefined;
    readonly connectString: string | undefined;
  };
  readonly spec: ZookeeperWorkload['spec'];
  readonly traits: TraitDetail[];
  readonly events: EventView[];
}

export function ensembleState(cluster: string, workload: ZookeeperWorkload): EnsembleState {
  const { metadata, spec, status } = workload;
  return {
    cluster,
    namespace: metadata.namespace ?? '',
    name: metadata.name,
    phase: status?.phase ?? 'Pending',
    members: { desired: spec.replicas, ready: status?.readyReplicas ?? 0 },
    leader: status?.leader,
    createdAt: metadata.creationTimestamp,
  };
}

export function ensembleSummary(cluster: string, workload: ZookeeperWorkload, traits: readonly TraitDetail[]): EnsembleSummary {
  return { ...ensembleState(cluster, workload), traits: traits.map(traitSummary) };
}

export function ensembleDetail(
  cluster: string,
  workload: ZookeeperWorkload,
  traits: readonly TraitDetail[],
  events: readonly EventView[],
  lag?: MembersLag,
): EnsembleDetail {
  const { metadata, spec, status } = workload;
  return {
    ...ensembleState(cluster, workload),
    generation: metadata.generation,
    observedGeneration: status?.observedGeneration,
    resourceVersion: metadata.resourceVersion,
    memberStatus: lag?.members ?? status?.members ?? [],
    ...(lag === undefined ? {} : { zxid: lag.zxid }),
    conditions: status?.conditions ?? [],
    committedConfig: { version: status?.configVersion, members: status?.replicas, connectString: status?.clientEndpoint?.connectString },
    spec,
    traits: [...traits],
    events: [...events],
  };
}
