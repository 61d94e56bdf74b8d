// The plan when the workload asks for exactly the committed voters: finish the last change, then start the next one.
import { myidOfOrdinal, ordinalOfMyid } from '@zk-oam/apis';
import { majorityAfter } from '@zk-oam/zookeeper';
import { adding, blockedBy, removing, waitFor, type Decision } from './decision.js';
import { memberOf } from './identity.js';
import type { ScalePlanInput } from './input.js';
import { healthProblem, syncedVoters, type HealthProblem, type Membership } from './membership.js';

export function decideAtRest(membership: Membership, input: ScalePlanInput): Decision {
  return leftoverOfLastRemoval(membership, input) ?? nextChange(membership, input);
}

/** A lowered StatefulSet still stopping its pod, or the stopped member's volume still to release. */
function leftoverOfLastRemoval(membership: Membership, input: ScalePlanInput): Decision | undefined {
  const { statefulSet, workloadReplicas, statefulSetReplicas } = membership;
  if (statefulSetReplicas > workloadReplicas) {
    return waitFor(
      'WaitingForStatefulSet',
      `StatefulSet ${statefulSet} still has ${statefulSetReplicas} replicas, the workload asks for ${workloadReplicas}`,
      removing(myidOfOrdinal(statefulSetReplicas - 1), 'StoppingMember'),
    );
  }
  const outside = membership.pods.filter((pod) => pod.ordinal >= workloadReplicas).sort((a, b) => b.ordinal - a.ordinal)[0];
  if (outside !== undefined) {
    return waitFor(
      'WaitingForPodRemoval',
      `${memberOf(statefulSet, myidOfOrdinal(outside.ordinal))} has left the config; waiting for its pod to be deleted`,
      removing(myidOfOrdinal(outside.ordinal), 'StoppingMember'),
    );
  }
  if (input.trait.removedMemberVolumePolicy !== 'Delete') {
    return undefined;
  }
  const release = membership.volumes
    .filter((volume) => volume.ordinal >= workloadReplicas && !volume.deleting)
    .sort((a, b) => b.ordinal - a.ordinal)[0];
  if (release === undefined) {
    return undefined;
  }
  const member = myidOfOrdinal(release.ordinal);
  return { action: { kind: 'DeleteVolume', pvc: release.name, member }, change: removing(member, 'ReleasingVolume') };
}

function nextChange(membership: Membership, input: ScalePlanInput): Decision {
  const target = input.trait.replicas;
  const problem = healthProblem(membership);
  if (problem !== undefined) {
    return unsettled(membership, input, problem);
  }
  if (target === membership.size) {
    return { action: { kind: 'Done' }, change: 'none' };
  }
  return target > membership.size ? startAdding(membership) : startRemoving(membership);
}

/**
 * No new change starts on an unhealthy ensemble. A voter that does not serve blocks until a person (or Kubernetes)
 * brings it back; a settling ensemble is waited for. Right after an add, settling is the add's own last stage.
 */
function unsettled(membership: Membership, input: ScalePlanInput, problem: HealthProblem): Decision {
  const { size, statefulSet } = membership;
  const target = input.trait.replicas;
  const recorded = input.recordedStep;
  if (recorded?.action === 'Add' && recorded.myid === size) {
    return waitFor(
      'ConfirmingMembership',
      `${memberOf(statefulSet, size)} is in the committed config; waiting for the ensemble to settle: ${problem.message}`,
      adding(size, 'ConfirmingMembership'),
    );
  }
  if (target === size) {
    return { action: { kind: 'Done' }, change: 'none' };
  }
  const next = target > size ? `adding ${memberOf(statefulSet, size + 1)}` : `removing ${memberOf(statefulSet, size)}`;
  return problem.voterDown
    ? blockedBy('MemberUnhealthy', `not ${next} while the ensemble is unhealthy: ${problem.message}`, 'none')
    : waitFor('WaitingForHealthyEnsemble', `not ${next} until the ensemble has settled: ${problem.message}`, 'none');
}

function startAdding(membership: Membership): Decision {
  const { size, statefulSet } = membership;
  const joiner = size + 1;
  const releasing = membership.volumes.find((volume) => volume.ordinal === ordinalOfMyid(joiner) && volume.deleting);
  if (releasing !== undefined) {
    return waitFor(
      'WaitingForVolumeRelease',
      `volume ${releasing.name} of ${memberOf(statefulSet, joiner)} is still being deleted; the new pod must not start on it`,
      removing(joiner, 'ReleasingVolume'),
    );
  }
  return { action: { kind: 'RaiseReplicas', to: size + 1, member: joiner }, change: adding(joiner, 'StartingMember') };
}

/**
 * Highest ordinal first, the leader included: ZooKeeper hands leadership over when the leader leaves. The leaving
 * member is still up while the reconfig commits (its pod stops only after), so it counts towards the old majority:
 * that is what makes 2 -> 1 possible. The new voters must hold a majority of their own without it.
 */
function startRemoving(membership: Membership): Decision {
  const { size, statefulSet, voters } = membership;
  const leaving = size;
  const remaining = voters.filter((id) => id !== leaving);
  const check = majorityAfter(syncedVoters(membership), voters, remaining);
  if (!check.ok) {
    return blockedBy('QuorumAtRisk', `not removing ${memberOf(statefulSet, leaving)}: ${check.reason}`, 'none');
  }
  return {
    action: { kind: 'ReconfigRemove', member: leaving, fromVersion: membership.version },
    change: removing(leaving, 'LeavingConfiguration'),
  };
}
