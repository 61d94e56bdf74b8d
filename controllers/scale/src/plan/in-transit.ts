// The plan when one member (myid n+1, pod n) runs outside the committed config: it is joining, or it has just left.
//
// Both histories look the same from outside (a non-voting member beside n voters) and need the same next step:
// towards a larger target it is reconfigured in, otherwise its pod is stopped. So the plan needs no memory of which
// step came last, and a lost status write can neither repeat nor skip a reconfig.
import { ordinalOfMyid } from '@zk-oam/apis';
import { majorityAfter } from '@zk-oam/zookeeper';
import { adding, blockedBy, removing, waitFor, type Decision } from './decision.js';
import { memberOf } from './identity.js';
import type { ScalePlanInput } from './input.js';
import { healthProblem, livePod, syncedVoters, type Membership } from './membership.js';

export function decideInTransit(membership: Membership, input: ScalePlanInput): Decision {
  return input.trait.replicas > membership.size ? continueJoining(membership, input) : stopOutsider(membership);
}

/** Invariant 3: reconfig in only a running, synced, non-voting server; invariant 1: old and new majorities hold. */
function continueJoining(membership: Membership, input: ScalePlanInput): Decision {
  const joiner = membership.size + 1;
  return (
    joinerNotReady(membership, joiner) ??
    ensembleNotReady(membership, joiner) ?? {
      action: {
        kind: 'ReconfigAdd',
        member: joiner,
        server: { ...input.serverEntryOf(joiner), role: 'participant' },
        fromVersion: membership.version,
      },
      change: adding(joiner, 'JoiningConfiguration'),
    }
  );
}

function joinerNotReady(membership: Membership, joiner: number): Decision | undefined {
  const { statefulSet, statefulSetReplicas, workloadReplicas } = membership;
  const name = memberOf(statefulSet, joiner);
  const starting = adding(joiner, 'StartingMember');
  // A StatefulSet above the workload is still stopping pods: never reconfig in a member whose pod may be going away.
  if (statefulSetReplicas !== workloadReplicas) {
    return waitFor(
      'WaitingForStatefulSet',
      `StatefulSet ${statefulSet} has ${statefulSetReplicas} replicas, the workload asks for ${workloadReplicas}`,
      starting,
    );
  }
  if (livePod(membership, ordinalOfMyid(joiner))?.podIP === undefined) {
    return waitFor('WaitingForPod', `${name} has no running pod with an IP yet`, starting);
  }
  const status = membership.assessment.members.find((member) => member.id === joiner);
  if (status === undefined || !status.serving) {
    return waitFor('WaitingForServer', `${name} ${status?.problem ?? 'was not observed'}`, starting);
  }
  if (status.role === 'leader') {
    return leaderOutsideConfig(membership, joiner, starting);
  }
  if (!status.synced) {
    const message = `${name} serves as a non-voting ${status.role} but has not synced with the leader yet`;
    return waitFor('WaitingForSync', message, adding(joiner, 'WaitingForSync'));
  }
  return undefined;
}

function ensembleNotReady(membership: Membership, joiner: number): Decision | undefined {
  const { statefulSet, voters } = membership;
  const name = memberOf(statefulSet, joiner);
  const synced = adding(joiner, 'WaitingForSync');
  const problem = healthProblem(membership);
  if (problem?.voterDown === true) {
    return blockedBy('MemberUnhealthy', `not adding ${name} to the config while the ensemble is unhealthy: ${problem.message}`, synced);
  }
  if (problem !== undefined) {
    return waitFor('WaitingForHealthyEnsemble', `not adding ${name} to the config until the ensemble has settled: ${problem.message}`, synced);
  }
  const check = majorityAfter([...syncedVoters(membership), joiner], voters, [...voters, joiner]);
  return check.ok ? undefined : blockedBy('QuorumAtRisk', `not adding ${name}: ${check.reason}`, synced);
}

/**
 * The outsider is a member just reconfigured out, or a joiner the target no longer needs. Its pod may stop once the
 * voters keep a quorum without it and leadership has moved off it; the executor confirms with a write first.
 */
function stopOutsider(membership: Membership): Decision {
  const { statefulSet, size, voters } = membership;
  const outsider = size + 1;
  const name = memberOf(statefulSet, outsider);
  const change = removing(outsider, 'StoppingMember');
  const leader = membership.assessment.leader;
  if (leader === outsider) {
    return leaderOutsideConfig(membership, outsider, change);
  }
  if (leader === undefined || !voters.includes(leader)) {
    return waitFor('WaitingForLeaderHandover', `not stopping ${name} yet: no voter leads the ensemble`, change);
  }
  const check = majorityAfter(syncedVoters(membership), voters, voters);
  if (!check.ok) {
    return waitFor('WaitingForQuorum', `not stopping ${name} yet: ${check.reason}`, change);
  }
  return { action: { kind: 'LowerReplicas', to: size, member: outsider }, change };
}

/** A removed leader keeps leading until the new config commits; it then hands over. Anything longer needs a person. */
function leaderOutsideConfig(membership: Membership, outsider: number, change: Decision['change']): Decision {
  return waitFor(
    'WaitingForLeaderHandover',
    `${memberOf(membership.statefulSet, outsider)} leads but is not a voter of the committed config; waiting for leadership to move to a voter`,
    change,
  );
}
