// Reads the observed world into the membership the planner reasons about, or blocks when it is not one the plan owns.
import { ordinalOfMyid, podOfMember } from '@zk-oam/apis';
import { assessEnsemble, type EnsembleAssessment, type Zxid } from '@zk-oam/zookeeper';
import { blockedBy, waitFor, type Decision } from './decision.js';
import { listMembers } from './identity.js';
import type { ObservedPod, ObservedVolume, ScalePlanInput } from './input.js';

/**
 * The membership zk-oam keeps: voters 1..n on pods 0..n-1, and at most one member (myid n+1, pod n) outside the
 * committed config while it joins or leaves. Everything else is a state the plan does not own.
 */
export interface Membership {
  statefulSet: string;
  /** Committed voters, always 1..size. */
  voters: number[];
  size: number;
  version: Zxid;
  assessment: EnsembleAssessment;
  workloadReplicas: number;
  statefulSetReplicas: number;
  pods: readonly ObservedPod[];
  volumes: readonly ObservedVolume[];
}

export type MembershipReading = { ok: true; membership: Membership } | { ok: false; decision: Decision };

export function readMembership(input: ScalePlanInput): MembershipReading {
  if (!input.committed.ok) {
    return refuse(blockedBy('ConfigUnreadable', `cannot read the committed ZooKeeper config: ${input.committed.reason}`, 'unknown'));
  }
  if (input.statefulSet === undefined) {
    return refuse(waitFor('WaitingForStatefulSet', 'the workload has no StatefulSet yet', 'unknown'));
  }
  const config = input.committed.config;
  const statefulSet = input.statefulSet.name;
  const observers = config.servers.filter((server) => server.role === 'observer').map((server) => server.id);
  if (observers.length > 0) {
    return refuse(
      blockedBy(
        'UnmanagedObserver',
        `the committed config lists ${listMembers(statefulSet, observers)} as observer; ` +
          'zk-oam manages voting members only, so it will not change membership around them',
        'unknown',
      ),
    );
  }
  const voters = config.servers.map((server) => server.id);
  const size = voters.length;
  if (size === 0 || voters.some((id, index) => id !== index + 1)) {
    return refuse(
      blockedBy(
        'UnexpectedVoters',
        `the committed config has voters [${voters.join(', ')}], but zk-oam keeps voters 1..n on pods ` +
          `${statefulSet}-0..n-1; reconcile the membership by hand first`,
        'unknown',
      ),
    );
  }
  const membership: Membership = {
    statefulSet,
    voters,
    size,
    version: config.version,
    assessment: assessEnsemble(config, input.observations),
    workloadReplicas: input.workloadReplicas,
    statefulSetReplicas: input.statefulSet.replicas,
    pods: input.pods,
    volumes: input.volumes,
  };
  const mismatch = replicasMismatch(membership) ?? voterWithoutPod(membership);
  return mismatch === undefined ? { ok: true, membership } : refuse(mismatch);
}

function refuse(decision: Decision): MembershipReading {
  return { ok: false, decision };
}

/** The workload may ask for the voters, or the voters plus the one member in transit; anything else is not our doing. */
function replicasMismatch(membership: Membership): Decision | undefined {
  const { workloadReplicas, size, statefulSet } = membership;
  if (workloadReplicas < size) {
    const cut = membership.voters.filter((myid) => ordinalOfMyid(myid) >= workloadReplicas);
    return blockedBy(
      'ReplicasBelowMembership',
      `the workload asks for ${workloadReplicas} pods but ${listMembers(statefulSet, cut)} still vote in the committed ` +
        'config; their pods must not be stopped before a reconfig removes them',
      'unknown',
    );
  }
  if (workloadReplicas > size + 1) {
    return blockedBy(
      'ReplicasAboveMembership',
      `the workload asks for ${workloadReplicas} pods but the committed config has ${size} voters; ` +
        `zk-oam adds one member at a time and will not guess which of ${workloadReplicas - size} outsiders to add`,
      'unknown',
    );
  }
  return undefined;
}

/** A voter whose pod is missing or being deleted is down for a reason the plan did not cause. */
function voterWithoutPod(membership: Membership): Decision | undefined {
  const missing = membership.voters.filter((myid) => livePod(membership, ordinalOfMyid(myid)) === undefined);
  if (missing.length === 0) {
    return undefined;
  }
  const one = missing.length === 1;
  return blockedBy(
    'VoterWithoutPod',
    `${listMembers(membership.statefulSet, missing)} ${one ? 'is a voter' : 'are voters'} in the committed config without a ` +
      `running pod; waiting for ${one ? 'it' : 'them'} to come back`,
    'unknown',
  );
}

/** The pod at an ordinal, unless it is absent or being deleted. */
export function livePod(membership: Membership, ordinal: number): ObservedPod | undefined {
  return membership.pods.find((pod) => pod.ordinal === ordinal && !pod.deleting);
}

/** Ids of the voters that serve and are synced: the ones that can ack a proposal. */
export function syncedVoters(membership: Membership): number[] {
  return membership.assessment.members.filter((member) => member.voter && member.synced).map((member) => member.id);
}

/**
 * What is wrong with the ensemble, in words that name the pod ("member 2 (127.0.1.2) is not serving requests
 * (pod zk-1)"). `voterDown`: a voter does not serve at all, which needs a person; otherwise the ensemble is settling
 * (a voter syncing, an election, a promoted observer rejoining as a follower).
 */
export interface HealthProblem {
  message: string;
  voterDown: boolean;
}

export function healthProblem(membership: Membership): HealthProblem | undefined {
  const { health, members } = membership.assessment;
  if (health.ok) {
    return undefined;
  }
  return {
    message: health.member === undefined ? health.reason : `${health.reason} (pod ${podOfMember(membership.statefulSet, health.member)})`,
    voterDown: members.some((member) => member.voter && !member.serving),
  };
}
