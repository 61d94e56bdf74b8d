// Everything the status's phase and conditions are decided from, gathered once from the observation so that each
// decision is a small pure function (phase.ts, conditions.ts).
import type { QuorumTlsStep } from '@zk-oam/apis';
import { liveCaRotation, type CaRotationStep } from '../tls/ca-rotation.js';
import { liveQuorumTls } from '../tls/quorum-steps.js';
import type { DeriveStatusInput } from './derive-status.js';
import { ensembleProblem, type EnsembleProblem } from './ensemble-problem.js';
import { viewEnsemble, type EnsembleView } from './ensemble-view.js';
import { membershipDrift, type MembershipDrift } from './membership-drift.js';
import { hasRunBefore } from './phase.js';
import { rolloutOf, type Rollout } from './rollout.js';

export interface StatusFacts {
  view: EnsembleView;
  problem: EnsembleProblem | undefined;
  drift: MembershipDrift;
  rollout: Rollout;
  statefulSetName: string;
  statefulSetExists: boolean;
  /** The quorum TLS step the StatefulSet renders, when it exists. */
  quorumTls: QuorumTlsStep | undefined;
  /** The step of a CA rotation the StatefulSet renders, when one is under way. */
  caRotation: CaRotationStep | undefined;
  /** The StatefulSet's spec.replicas, when it exists. */
  desiredPods: number | undefined;
  /** The ensemble has run before (a previous status said Running, Degraded or Failed): creation is over. */
  created: boolean;
  /** A majority of voters serves and one member leads: clients can read and write. */
  serving: boolean;
}

export function gatherStatusFacts(input: Omit<DeriveStatusInput, 'now'>, statefulSetName: string): StatusFacts {
  const { statefulSet } = input;
  const view = viewEnsemble(input.ensemble, statefulSetName);
  return {
    view,
    problem: ensembleProblem(view),
    drift: membershipDrift(view, statefulSet),
    rollout: rolloutOf(statefulSet, input.pods),
    statefulSetName,
    statefulSetExists: statefulSet !== undefined,
    desiredPods: statefulSet?.spec?.replicas,
    quorumTls: statefulSet === undefined ? undefined : liveQuorumTls(statefulSet, input.workload.spec.tls),
    caRotation: liveCaRotation(statefulSet),
    created: hasRunBefore(input.workload.status?.phase),
    serving: view.assessment.hasQuorum && view.leader !== undefined,
  };
}
