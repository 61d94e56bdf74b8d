// Decides the Ready, Progressing and Degraded conditions, with reasons a person understands and messages naming pods.
import type { WorkloadReason } from '@zk-oam/apis';
import { describeQuorumTls, isMovingToTls } from '../tls/quorum-steps.js';
import type { ConditionType, ConditionVerdict } from './conditions.js';
import { isRollingOut } from './rollout.js';
import { problemDetail, servingCount, type Judgement } from './judgement.js';

export function conditionVerdicts(judgement: Judgement): ConditionVerdict[] {
  return [readyVerdict(judgement), progressingVerdict(judgement), degradedVerdict(judgement)];
}

/** Ready means clients can read and write (a serving quorum with one leader), so it stays True while Degraded names a lost member. */
function readyVerdict(judgement: Judgement): ConditionVerdict {
  const { view, problem } = judgement;
  const verdict = verdictOf('Ready');
  if (judgement.serving && view.leader !== undefined) {
    return verdict('True', 'QuorumHealthy', `${servingCount(view)}, leader ${view.leader.pod}`);
  }
  if (!judgement.statefulSetExists && !judgement.created) {
    return verdict('False', 'NotCreated', `StatefulSet ${judgement.statefulSetName} does not exist yet`);
  }
  const detail = problemDetail(judgement, ': ');
  if (!judgement.created) {
    return verdict('False', 'Creating', `waiting for the first quorum, ${servingCount(view)}${detail}`);
  }
  if (!view.assessment.hasQuorum) {
    const { voters, quorumSize } = view.assessment;
    const servingVoters = view.members.filter((member) => member.health.voter && member.health.serving).length;
    return verdict('False', 'NoQuorum', `${servingVoters} of ${voters.length} voters serving, ${quorumSize} needed${detail}`);
  }
  return verdict('False', 'NoLeader', problem?.message ?? 'no member leads');
}

function progressingVerdict(judgement: Judgement): ConditionVerdict {
  const { drift, rollout, view } = judgement;
  const verdict = verdictOf('Progressing');
  if (!judgement.statefulSetExists) {
    return verdict('True', 'Creating', `StatefulSet ${judgement.statefulSetName} does not exist yet`);
  }
  if (!judgement.created) {
    const detail = problemDetail(judgement, '; ');
    const desired = judgement.desiredPods === undefined ? '' : ` of ${judgement.desiredPods}`;
    return verdict('True', 'Creating', `creating the ensemble: ${rollout.pods}${desired} pods, ${servingCount(view)}${detail}`);
  }
  if (drift.kind === 'scaling') {
    return verdict('True', 'Scaling', drift.message);
  }
  if (judgement.quorumTls !== undefined && isMovingToTls(judgement.quorumTls)) {
    const restarted = `${rollout.updatedPods} of ${rollout.pods} pods restarted into it`;
    return verdict('True', 'MovingToTls', `moving member-to-member traffic to TLS, ${describeQuorumTls(judgement.quorumTls)}: ${restarted}`);
  }
  if (isRollingOut(rollout)) {
    return verdict(
      'True',
      'RollingOut',
      `${rollout.updatedPods} of ${rollout.pods} pods updated to revision ${rollout.updateRevision ?? 'unknown'}`,
    );
  }
  const revision = rollout.updateRevision === undefined ? '' : ` at revision ${rollout.updateRevision}`;
  return verdict('False', 'UpToDate', `${rollout.pods} pods${revision}, committed config has ${view.assessment.voters.length} voters`);
}

function degradedVerdict(judgement: Judgement): ConditionVerdict {
  const { view, problem, drift } = judgement;
  const verdict = verdictOf('Degraded');
  if (!judgement.created) {
    return verdict('False', 'Creating', 'not judged until the ensemble has run once');
  }
  if (!judgement.statefulSetExists) {
    return verdict('True', 'StatefulSetMissing', `StatefulSet ${judgement.statefulSetName} is missing`);
  }
  if (problem !== undefined) {
    return verdict('True', problem.reason, problem.message);
  }
  if (drift.kind === 'mismatch') {
    return verdict('True', 'ConfigMismatch', drift.message);
  }
  const leader = view.leader === undefined ? '' : `, leader ${view.leader.pod}`;
  return verdict('False', 'Healthy', `${servingCount(view)} and synced${leader}`);
}

function verdictOf(type: ConditionType): (status: ConditionVerdict['status'], reason: WorkloadReason, message: string) => ConditionVerdict {
  return (status, reason, message) => ({ type, status, reason, message });
}
