// The condition and Warning Event reasons of a ZookeeperRolling (the rolling trait controller).
import { TRAIT_BINDING_REASONS } from './binding.js';
import { reasonCatalog } from './entry.js';
import { TRAIT_STEP_REASONS } from './trait-step.js';

const WAITING = ['Waiting', 'Ready and a Warning Event when Blocked'] as const;
const STATE = ['Ready'] as const;
const NOT_WAITING = ['Waiting'] as const;
const FAILED_STEP = ['Ready', 'Warning Event'] as const;
const WAIT_TODO = 'Nothing while it clears; past spec.stepTimeoutSeconds the trait is Blocked with this reason and waits for you: fix what the message names.';

export const ROLLING_REASONS = reasonCatalog({
  ...TRAIT_BINDING_REASONS,
  InvalidSpec: {
    shownIn: ['Ready', 'Warning Event'],
    means:
      'The trait\'s stored spec does not validate (an object written before a schema change, or with validation bypassed). ' +
      'The controller does nothing with it: no binding, no restart, the disruption lock neither renewed nor released; the ' +
      'rest of the status (a handover record included) stays as it was.',
    todo: 'Fix the fields the message names; the next reconcile proceeds.',
  },
  TlsOnlyUnsupported: {
    shownIn: ['Bound', 'Waiting', 'Ready'],
    means:
      'The workload serves clients over TLS only (spec.tls.client Only) and the trait asks for leaderHandover Reconfigure: ' +
      'ZooKeeper takes a member back into the voters only when its server line carries a client address, which would open a ' +
      'plain client port on it, so the trait does not bind; the StatefulSet keeps rolling natively (RollingUpdate, ' +
      'leader-unaware), which also restarts the members onto a renewed certificate.',
    todo: 'Use leaderHandover Election (the default), which works over TLS, or create the workload with spec.tls.client Alongside.',
  },
  Bound: {
    shownIn: ['Bound'],
    means: 'The trait is bound to its workload, whose StatefulSet uses the OnDelete update strategy.',
    todo: 'Nothing.',
  },
  Idle: { shownIn: STATE, means: 'Every pod runs the current revision and restart trigger.', todo: 'Nothing.' },
  Rolling: { shownIn: STATE, means: 'Outdated pods are being restarted, followers first and the leader last.', todo: 'Nothing; `kubectl get zkr -o wide` names the pod in progress.' },
  Paused: { shownIn: [...STATE, ...NOT_WAITING], means: 'spec.paused is set: the pod in progress finished and no other starts.', todo: 'Set spec.paused to false to go on.' },
  Completed: { shownIn: STATE, means: 'The last rollout finished: every pod restarted, the leader last.', todo: 'Nothing.' },
  Done: { shownIn: NOT_WAITING, means: 'Nothing is left to restart.', todo: 'Nothing.' },
  Proceeding: { shownIn: NOT_WAITING, means: 'The next restart is not waiting for anything.', todo: 'Nothing.' },
  StatefulSetMissing: {
    shownIn: ['Waiting'],
    means: 'The workload has no StatefulSet; there is nothing to roll.',
    todo: 'Read the workload\'s conditions: it is being created, or its StatefulSet was deleted.',
  },
  DisruptionLockBusy: {
    shownIn: ['Waiting'],
    means: 'Another disruptive operation (a scale, or another roll) holds the ensemble\'s Lease <workload>-disruption; the message names the holder, since when and until when.',
    todo: 'Nothing: the roll goes on when the holder finishes. A holder that is gone stops renewing, and its Lease expires.',
  },
  DisruptionLockLost: {
    shownIn: ['Waiting', 'Ready', 'Warning Event'],
    means:
      'A pod this trait restarted was not back yet, or a leader handover was under way, when the ensemble\'s Lease ' +
      '<workload>-disruption expired before this controller renewed it (the controller was stopped or stalled for longer ' +
      'than the lock\'s duration), and another operation took it over; the message names it. No pod is restarted and no ' +
      'reconfig made until the lock is free again; then the roll goes on from what the controller observes.',
    todo: 'Nothing, unless it repeats: then find why the rolling controller stalls (its logs, its restarts), or raise LOCK_DURATION_SECONDS.',
  },
  NoUpdateRevision: { shownIn: WAITING, means: 'The StatefulSet has no update revision yet: its controller has not observed the new template.', todo: WAIT_TODO },
  StatefulSetNotOnDelete: { shownIn: WAITING, means: 'The StatefulSet does not use OnDelete yet; the workload controller switches it once it sees the trait bound.', todo: WAIT_TODO },
  RestartRequestSettling: { shownIn: WAITING, means: 'A new spec.restartTrigger was recorded; the roll starts once every pod older than the request can be told apart by its start time.', todo: 'Nothing.' },
  PodMissing: { shownIn: WAITING, means: 'A member\'s pod does not exist; no other member is restarted before it is back.', todo: WAIT_TODO },
  PodTerminating: { shownIn: WAITING, means: 'A member\'s pod is terminating.', todo: WAIT_TODO },
  PodNotReady: { shownIn: WAITING, means: 'A member\'s pod is not Ready.', todo: WAIT_TODO },
  MemberNotSynced: { shownIn: WAITING, means: 'A member is up but not in the quorum and synced with the leader yet.', todo: WAIT_TODO },
  LeadershipMoving: {
    shownIn: WAITING,
    means: 'The leader was reconfigured out of the voters to hand leadership over; the roll waits for its successor to lead before restarting it.',
    todo: WAIT_TODO,
  },
  HandoverInterrupted: {
    shownIn: ['Waiting', 'Ready', 'Warning Event'],
    means: 'A member went down while the former leader is out of the voters for a handover. The trait is Blocked at once; the former leader is reconfigured back in as soon as it runs synced and the voters have a leader and quorum.',
    todo: 'Bring the member named in the message back. With 3 members, the ensemble has no quorum until it is back.',
  },
  EnsembleUnhealthy: { shownIn: WAITING, means: 'The ensemble is not healthy (no leader, a voter down, the configuration unreadable); no member goes down before it is.', todo: WAIT_TODO },
  NoQuorumMargin: {
    shownIn: ['Waiting', 'Ready', 'Warning Event'],
    means: 'No member can go down without losing the quorum (a 1- or 2-member ensemble, or members already down). The roll is Blocked at once.',
    todo: 'Bring the down members back, or scale to 3 or more members; a 1-member ensemble can only be restarted with downtime (delete its pod).',
  },
  ...TRAIT_STEP_REASONS,
  PodDeleteFailed: { shownIn: FAILED_STEP, means: 'Deleting the pod to restart failed; the quoted error says why.', todo: 'Check the controller\'s RBAC on pods, and any admission policy that refuses deletion.' },
});
export type RollingReason = keyof typeof ROLLING_REASONS;
