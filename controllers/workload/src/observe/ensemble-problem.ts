// Names what is wrong with an ensemble the health model judged unhealthy, as a condition reason and a message about pods.
import type { EnsembleView, MemberView } from './ensemble-view.js';
import { memberName } from '@zk-oam/apis';

export type ProblemReason = 'MemberNotServing' | 'NoLeader' | 'LeaderNotVoter' | 'VoterRunsAsObserver' | 'NotSynced';

export interface EnsembleProblem {
  reason: ProblemReason;
  message: string;
}

/** Undefined when the health model finds nothing wrong. Checked in the health model's order: down, leadership, sync. */
export function ensembleProblem(view: EnsembleView): EnsembleProblem | undefined {
  const health = view.assessment.health;
  if (health.ok) {
    return undefined;
  }
  const down = view.members.filter((member) => member.inConfig && !member.health.serving);
  if (down.length > 0) {
    return { reason: 'MemberNotServing', message: down.map(describeDown).join('; ') };
  }
  const leaders = view.members.filter((member) => member.health.role === 'leader');
  if (leaders.length !== 1) {
    return {
      reason: 'NoLeader',
      message: leaders.length === 0 ? 'no member leads' : `${listPods(leaders)} all claim to lead`,
    };
  }
  const leader = leaders[0];
  if (leader !== undefined && !leader.health.voter) {
    return { reason: 'LeaderNotVoter', message: `${memberName(leader)} leads but is not a voter of the committed config` };
  }
  const observing = view.members.filter((member) => member.health.voter && member.health.role === 'observer');
  if (observing.length > 0) {
    return { reason: 'VoterRunsAsObserver', message: `${listPods(observing)} vote in the committed config but run as observers` };
  }
  const lagging = view.members.filter((member) => member.health.voter && !member.health.synced);
  return {
    reason: 'NotSynced',
    message:
      lagging.length > 0
        ? lagging.map((member) => `${member.pod} is not synced with the leader`).join('; ')
        : `the leader counts fewer synced voters than the committed config has (${health.reason})`,
  };
}

function describeDown(member: MemberView): string {
  const problem = member.hasPod ? (member.health.problem ?? 'is not serving requests') : 'has no pod';
  return `${memberName(member)} ${problem}`;
}

function listPods(members: readonly MemberView[]): string {
  return members.map((member) => member.pod).join(', ');
}
