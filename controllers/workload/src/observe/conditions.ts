// The Ready, Progressing and Degraded conditions of the workload's status, decided from the status facts with reasons a
// person understands and messages naming pods; the kit's setConditions dates them.
import type { WorkloadReason } from '@zk-oam/apis';
import type { ConditionVerdict as KitVerdict } from '@zk-oam/runtime';
import { describeCaRotation } from '../tls/ca-rotation.js';
import { describeQuorumTls, isMovingToTls } from '../tls/quorum-steps.js';
import { configuredMembers, type EnsembleView } from './ensemble-view.js';
import { isRollingOut } from './rollout.js';
import type { StatusFacts } from './status-facts.js';

export type ConditionType = 'Ready' | 'Progressing' | 'Degraded';

/** A condition as decided from the observation, before time and generation are stamped. */
export interface ConditionVerdict extends KitVerdict {
  type: ConditionType;
  /** One docs/troubleshooting.md explains. */
  reason: WorkloadReason;
}

export function conditionVerdicts(facts: StatusFacts): ConditionVerdict[] {
  return [readyVerdict(facts), progressingVerdict(facts), degradedVerdict(facts)];
}

/** Ready means clients can read and write (a serving quorum with one leader), so it stays True while Degraded names a lost member. */
function readyVerdict(facts: StatusFacts): ConditionVerdict {
  const { view, problem } = facts;
  const verdict = verdictOf('Ready');
  if (facts.serving && view.leader !== undefined) {
    return verdict('True', 'QuorumHealthy', `${servingCount(view)}, leader ${view.leader.pod}`);
  }
  if (!facts.statefulSetExists && !facts.created) {
    return verdict('False', 'NotCreated', `StatefulSet ${facts.statefulSetName} does not exist yet`);
  }
  const detail = problemDetail(facts, ': ');
  if (!facts.created) {
    return verdict('False', 'Creating', `waiting for the first quorum, ${servingCount(view)}${detail}`);
  }
  if (!view.assessment.hasQuorum) {
    const { voters, quorumSize } = view.assessment;
    const servingVoters = view.members.filter((member) => member.health.voter && member.health.serving).length;
    return verdict('False', 'NoQuorum', `${servingVoters} of ${voters.length} voters serving, ${quorumSize} needed${detail}`);
  }
  return verdict('False', 'NoLeader', problem?.message ?? 'no member leads');
}

function progressingVerdict(facts: StatusFacts): ConditionVerdict {
  const { drift, rollout, view } = facts;
  const verdict = verdictOf('Progressing');
  if (!facts.statefulSetExists) {
    return verdict('True', 'Creating', `StatefulSet ${facts.statefulSetName} does not exist yet`);
  }
  if (!facts.created) {
    const detail = problemDetail(facts, '; ');
    const desired = facts.desiredPods === undefined ? '' : ` of ${facts.desiredPods}`;
    return verdict('True', 'Creating', `creating the ensemble: ${rollout.pods}${desired} pods, ${servingCount(view)}${detail}`);
  }
  if (drift.kind === 'scaling') {
    return verdict('True', 'Scaling', drift.message);
  }
  if (facts.quorumTls !== undefined && isMovingToTls(facts.quorumTls)) {
    const restarted = `${rollout.updatedPods} of ${rollout.pods} pods restarted into it`;
    return verdict('True', 'MovingToTls', `moving member-to-member traffic to TLS, ${describeQuorumTls(facts.quorumTls)}: ${restarted}`);
  }
  if (facts.caRotation !== undefined) {
    const restarted = `${rollout.updatedPods} of ${rollout.pods} pods restarted into it`;
    return verdict('True', 'RotatingCa', `rotating the CA that signs the member certificate, ${describeCaRotation(facts.caRotation)}: ${restarted}`);
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

function degradedVerdict(facts: StatusFacts): ConditionVerdict {
  const { view, problem, drift } = facts;
  const verdict = verdictOf('Degraded');
  if (!facts.created) {
    return verdict('False', 'Creating', 'not judged until the ensemble has run once');
  }
  if (!facts.statefulSetExists) {
    return verdict('True', 'StatefulSetMissing', `StatefulSet ${facts.statefulSetName} is missing`);
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

/** "2/3 members serving": the members of the committed config that serve requests. */
function servingCount(view: EnsembleView): string {
  const configured = configuredMembers(view);
  return `${configured.filter((member) => member.health.serving).length}/${configured.length} members serving`;
}

/** What is wrong, appended to a message; nothing while there is no member to speak of. */
function problemDetail(facts: StatusFacts, separator: string): string {
  return facts.problem === undefined || facts.view.members.length === 0 ? '' : `${separator}${facts.problem.message}`;
}
