// What the rolling planner reads: plain values the controller observed (trait, StatefulSet, pods, ZooKeeper), no client.
import type { ZookeeperRollingSpec, ZookeeperRollingStatus, ZooConfig } from '@zk-oam/apis';
import type { CommittedConfig, EnsembleAssessment } from '@zk-oam/zookeeper';

/** One pod of the StatefulSet, reduced to what decides whether and when it may be deleted. */
export interface PodView {
  name: string;
  /** Deletions carry it as a precondition, so a stale plan never deletes the pod's replacement. */
  uid: string;
  ordinal: number;
  /** The `controller-revision-hash` label. */
  revision: string | undefined;
  createdAt: Date;
  ready: boolean;
  /** lastTransitionTime of the Ready condition: when the pod last became ready or stopped being ready. */
  readyChangedAt: Date | undefined;
  /** metadata.deletionTimestamp and deletionGracePeriodSeconds: set means Terminating, which counts as down. */
  deletion: { at: Date; gracePeriodSeconds: number | undefined } | undefined;
  /** Container restarts of the ZooKeeper container, quoted when the pod is the reason for a wait. */
  restartCount: number;
}

export interface StatefulSetView {
  /** Pods are named `<name>-<ordinal>`. */
  name: string;
  /** status.updateRevision: the revision every pod must end at; OnDelete recreates deleted pods at it. */
  updateRevision: string | undefined;
  /** spec.replicas: ordinals 0..replicas-1 are the members to roll. */
  replicas: number;
  /**
   * spec.updateStrategy is OnDelete as the StatefulSet stands: until then the StatefulSet controller may be rolling the
   * pods itself (the template change can arrive before the binding), so no pod of ours may be deleted.
   */
  onDelete: boolean;
}

/** The status fields the planner reads; `restartRequestedAt` is when the current restart trigger was recorded. */
export type RollingPlanStatus = Pick<
  ZookeeperRollingStatus,
  'observedRestartTrigger' | 'restartRequestedAt' | 'phase' | 'targetRevision' | 'completedAt' | 'conditions' | 'handover' | 'waitingSince'
>;

export interface RollingPlanInput {
  spec: Pick<ZookeeperRollingSpec, 'maxUnavailable' | 'restartTrigger' | 'paused' | 'stepTimeoutSeconds' | 'leaderHandover'>;
  status: RollingPlanStatus | undefined;
  statefulSet: StatefulSetView;
  pods: readonly PodView[];
  /** assessEnsemble over the committed config and fresh srvr/mntr answers, taken right before planning. */
  ensemble: EnsembleAssessment;
  /** The committed config the assessment was made over; undefined when no member could give it. */
  committed: CommittedConfig | undefined;
  /** The workload's zoo.cfg timing: initLimit ticks is how long ZooKeeper gives a follower to sync with a new leader. */
  zooConfig: Pick<ZooConfig, 'tickTime' | 'initLimit'>;
  now: Date;
}
