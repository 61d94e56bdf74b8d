// The condition and Warning Event reasons of a ZookeeperScale (the scale trait controller).
import { TRAIT_BINDING_REASONS } from './binding.js';
import { reasonCatalog } from './entry.js';
import { TRAIT_STEP_REASONS } from './trait-step.js';

const BLOCKED = ['Ready', 'Progressing', 'Blocked', 'Warning Event'] as const;
const WAITING = ['Progressing'] as const;
const STEP = ['Progressing'] as const;
const FAILED_STEP = ['Ready', 'Warning Event'] as const;
const WAIT_TODO = 'Nothing: the next step follows when it is done. Past spec.stepTimeoutSeconds the trait is Blocked with StepTimedOut.';

export const SCALE_REASONS = reasonCatalog({
  ...TRAIT_BINDING_REASONS,
  WorkloadInvalid: {
    shownIn: BLOCKED,
    means: 'The workload the trait names does not validate, so its membership cannot be planned.',
    todo: 'Fix the workload (its own InvalidSpec condition names the fields).',
  },
  TlsOnlyUnsupported: {
    shownIn: BLOCKED,
    means:
      'The workload serves clients over TLS only (spec.tls.client Only). ZooKeeper adds a member by reconfig only when its ' +
      'server line carries a client address, and a client address opens a plain client port on the member, so this ' +
      'controller does not scale such an ensemble (not supported yet).',
    todo: 'Keep the workload at its size, or create it with spec.tls.client Alongside (the plain port stays open beside the secure one).',
  },
  InvalidSpec: {
    shownIn: ['Ready', 'Warning Event'],
    means:
      'The trait\'s stored spec does not validate (an object written before a schema change, or with validation bypassed). ' +
      'The controller does nothing with it: no binding, no step, the disruption lock neither renewed nor released; the rest ' +
      'of the status stays as it was.',
    todo: 'Fix the fields the message names; the next reconcile proceeds.',
  },
  AtTarget: {
    shownIn: ['Ready'],
    means: 'The committed configuration has the asked number of voters and nothing is in transit.',
    todo: 'Nothing.',
  },
  Idle: {
    shownIn: ['Ready', 'Progressing'],
    means: 'No scaling is under way.',
    todo: 'Nothing.',
  },
  ScalingUp: {
    shownIn: ['Ready'],
    means: 'Members are being added, one at a time; Progressing says which step.',
    todo: 'Nothing.',
  },
  ScalingDown: {
    shownIn: ['Ready'],
    means: 'Members are being removed, one at a time; Progressing says which step.',
    todo: 'Nothing.',
  },
  NotBlocked: {
    shownIn: ['Blocked'],
    means: 'Nothing stops the scaling.',
    todo: 'Nothing.',
  },
  WaitingForDisruptionLock: {
    shownIn: ['Ready', 'Progressing'],
    means: 'Another disruptive operation (a rolling restart, or another scale) holds the ensemble\'s Lease <workload>-disruption; the message names the holder and since when.',
    todo: 'Nothing: the scaling starts when the holder finishes. If the holder is gone, its Lease expires on its own.',
  },
  DisruptionLockLost: {
    shownIn: ['Ready', 'Progressing', 'Warning Event'],
    means:
      'A member change was under way when the ensemble\'s Lease <workload>-disruption expired before this controller ' +
      'renewed it (the controller was stopped or stalled for longer than the lock\'s duration), and another operation took ' +
      'it over; the message names it. Nothing more is done until the lock is free again; then the step goes on from what ' +
      'the controller observes.',
    todo: 'Nothing, unless it repeats: then find why the scale controller stalls (its logs, its restarts), or raise LOCK_DURATION_SECONDS.',
  },
  RaiseReplicas: {
    shownIn: STEP,
    means: 'The workload\'s spec.replicas is raised by one: the new member\'s pod starts as a non-voting observer.',
    todo: 'Nothing.',
  },
  ReconfigAdd: {
    shownIn: STEP,
    means: 'A synced new member is made a voter with a reconfig.',
    todo: 'Nothing.',
  },
  ReconfigRemove: {
    shownIn: STEP,
    means: 'The highest member is taken out of the voting configuration with a reconfig; if it leads, ZooKeeper hands leadership over.',
    todo: 'Nothing.',
  },
  LowerReplicas: {
    shownIn: STEP,
    means: 'The removed member\'s pod is stopped by lowering the workload\'s spec.replicas, after a write proved the new configuration committed.',
    todo: 'Nothing.',
  },
  DeleteVolume: {
    shownIn: STEP,
    means: 'The removed member\'s volume claim is deleted (removedMemberVolumePolicy: Delete).',
    todo: 'Nothing.',
  },
  WaitingForStatefulSet: { shownIn: WAITING, means: 'The workload has no StatefulSet yet, or it has not caught up with its spec.', todo: WAIT_TODO },
  WaitingForPod: { shownIn: WAITING, means: 'The new member\'s pod is not running yet.', todo: WAIT_TODO },
  WaitingForServer: { shownIn: WAITING, means: 'The new member\'s ZooKeeper server does not answer yet.', todo: WAIT_TODO },
  WaitingForSync: { shownIn: WAITING, means: 'The new member is not synced with the leader yet; it is not made a voter before.', todo: WAIT_TODO },
  WaitingForLeaderHandover: { shownIn: WAITING, means: 'The member leaving the configuration still leads, or no voter leads yet; its pod is not stopped before leadership has moved to a voter.', todo: WAIT_TODO },
  WaitingForQuorum: { shownIn: WAITING, means: 'Stopping the removed member now would leave too few synced voters; waiting until more are synced.', todo: WAIT_TODO },
  WaitingForPodRemoval: { shownIn: WAITING, means: 'The removed member has left the configuration; its pod is being deleted.', todo: WAIT_TODO },
  WaitingForVolumeRelease: { shownIn: WAITING, means: 'The volume claim of the member about to be added is still being deleted; its new pod must not start on it.', todo: WAIT_TODO },
  WaitingForHealthyEnsemble: { shownIn: WAITING, means: 'The ensemble has not settled (a member restarting or syncing); no step starts before it has.', todo: WAIT_TODO },
  ConfirmingMembership: { shownIn: WAITING, means: 'The added member is in the committed configuration; waiting for the ensemble to settle before the next step.', todo: WAIT_TODO },
  ConfigUnreadable: {
    shownIn: BLOCKED,
    means: 'The committed ZooKeeper configuration could not be read from any member; the message says why. Membership is never changed blind.',
    todo: 'Check that the members serve (the workload\'s conditions) and that the controller reaches their client port.',
  },
  UnmanagedObserver: {
    shownIn: BLOCKED,
    means: 'The committed configuration lists observers the trait did not add; it manages voting members only.',
    todo: 'Remove the observers with a reconfig by hand (zkCli.sh reconfig -remove), or delete the trait.',
  },
  UnexpectedVoters: {
    shownIn: BLOCKED,
    means: 'The voters are not 1..n on pods 0..n-1, as the trait keeps them: the membership was changed by hand.',
    todo: 'Reconfigure the membership by hand back to myids 1..n, then the trait resumes.',
  },
  VoterWithoutPod: {
    shownIn: BLOCKED,
    means: 'A voter of the committed configuration has no running pod; changing membership now could lose the quorum.',
    todo: 'Bring the pod back (its Events say why it is missing); the trait resumes when it serves.',
  },
  ReplicasBelowMembership: {
    shownIn: BLOCKED,
    means: 'The workload asks for fewer pods than there are voters: someone lowered spec.replicas around the trait. Stopping those pods before a reconfig would lose voters.',
    todo: 'Set the workload\'s spec.replicas back and scale with the trait\'s spec.replicas instead.',
  },
  ReplicasAboveMembership: {
    shownIn: BLOCKED,
    means: 'The workload asks for more than one pod beyond the voters; members are added one at a time and the trait will not guess which to add.',
    todo: 'Set the workload\'s spec.replicas back and scale with the trait\'s spec.replicas instead.',
  },
  MemberUnhealthy: {
    shownIn: BLOCKED,
    means: 'A voter is down; adding or removing a member now would put the quorum at risk.',
    todo: 'Bring the member back (the workload\'s Degraded condition names it); the trait resumes when it serves.',
  },
  QuorumAtRisk: {
    shownIn: BLOCKED,
    means: 'The next step would leave fewer synced voters than a quorum; the message gives the count.',
    todo: 'Wait for the lagging members to sync, or bring the down ones back.',
  },
  StepTimedOut: {
    shownIn: BLOCKED,
    means: 'A wait lasted longer than spec.stepTimeoutSeconds; the message says what it waited for. The trait does not force the step.',
    todo: 'Fix what it waits for (the message names it); raise stepTimeoutSeconds if the ensemble is just slow to sync.',
  },
  ...TRAIT_STEP_REASONS,
  ReplicasUpdateFailed: { shownIn: FAILED_STEP, means: 'Changing the workload\'s spec.replicas failed.', todo: 'A conflict means another field manager owns spec.replicas: let the trait own it.' },
  ConfirmWriteFailed: { shownIn: FAILED_STEP, means: 'The write that proves the new configuration committed failed; no pod is stopped until it succeeds.', todo: 'Usually transient; check that the remaining voters serve.' },
  VolumeDeleteFailed: { shownIn: FAILED_STEP, means: 'Deleting the removed member\'s volume claim failed.', todo: 'Check the controller\'s RBAC on PersistentVolumeClaims and the quoted error.' },
});
export type ScaleReason = keyof typeof SCALE_REASONS;
