// Everything status conditions and phase are decided from, gathered once so each decision is a small pure function.
import type { QuorumTlsStep } from '@zk-oam/apis';
import type { EnsembleProblem } from './ensemble-problem.js';
import { configuredMembers, type EnsembleView } from './ensemble-view.js';
import type { MembershipDrift } from './membership-drift.js';
import type { Rollout } from './rollout.js';

export interface Judgement {
  view: EnsembleView;
  problem: EnsembleProblem | undefined;
  drift: MembershipDrift;
  rollout: Rollout;
  statefulSetName: string;
  statefulSetExists: boolean;
  /** The quorum TLS step the StatefulSet renders, when it exists. */
  quorumTls: QuorumTlsStep | undefined;
  /** The StatefulSet's spec.replicas, when it exists. */
  desiredPods: number | undefined;
  /** The ensemble has run before (a previous status said Running, Degraded or Failed): creation is over. */
  created: boolean;
  /** A majority of voters serves and one member leads: clients can read and write. */
  serving: boolean;
}

/** "2/3 members serving": the members of the committed config that serve requests. */
export function servingCount(view: EnsembleView): string {
  const configured = configuredMembers(view);
  return `${configured.filter((member) => member.health.serving).length}/${configured.length} members serving`;
}

/** What is wrong, appended to a message; nothing while there is no member to speak of. */
export function problemDetail(judgement: Judgement, separator: string): string {
  return judgement.problem === undefined || judgement.view.members.length === 0 ? '' : `${separator}${judgement.problem.message}`;
}
