// What the scale planner looks at: plain values the controller observed just before planning, no clients.
import type { ScaleStep, ZookeeperScaleSpec } from '@zk-oam/apis';
import type { CommittedConfig, MemberObservation, ServerEntry } from '@zk-oam/zookeeper';

export interface ObservedPod {
  name: string;
  ordinal: number;
  ready: boolean;
  /** Set once the pod is being deleted: it counts as gone for the ensemble and is never a joiner. */
  deleting: boolean;
  podIP: string | undefined;
}

/** A PersistentVolumeClaim of the workload's StatefulSet, tied to the member ordinal it serves. */
export interface ObservedVolume {
  name: string;
  ordinal: number;
  deleting: boolean;
}

/** The committed config read after a sync (from the leader when there is one), or why it could not be read. */
export type CommittedReading = { ok: true; config: CommittedConfig } | { ok: false; reason: string };

export interface ScalePlanInput {
  trait: Pick<ZookeeperScaleSpec, 'replicas' | 'removedMemberVolumePolicy' | 'stepTimeoutSeconds'>;
  /** The step record from the trait's status; a hint for wording and the step clock only, never for the next action. */
  recordedStep: ScaleStep | undefined;
  /** The workload's spec.replicas: the size the scale controller asks for. */
  workloadReplicas: number;
  /** Undefined until the workload controller has created it. */
  statefulSet: { name: string; replicas: number } | undefined;
  pods: readonly ObservedPod[];
  volumes: readonly ObservedVolume[];
  committed: CommittedReading;
  /** srvr/mntr of every member pod, keyed by myid (ordinal + 1). */
  observations: readonly MemberObservation[];
  /** The participant line of member `myid`, as the workload renders it (the joiner runs with the same host and ports). */
  serverEntryOf: (myid: number) => ServerEntry;
  now: Date;
}
