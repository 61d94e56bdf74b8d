// Compares the committed voters with the StatefulSet's size: members in transit are scaling, a bare difference is a mismatch.
import type { V1StatefulSet } from '@kubernetes/client-node';
import type { EnsembleView, MemberView } from './ensemble-view.js';
import { memberName } from '@zk-oam/apis';

export type MembershipDrift =
  | { kind: 'none' }
  /** Pods outside the committed config (joining or leaving as non-voting members) or pods not created yet. */
  | { kind: 'scaling'; message: string }
  /** The counts differ with nothing in transit to explain it. */
  | { kind: 'mismatch'; message: string };

export function membershipDrift(view: EnsembleView, statefulSet: V1StatefulSet | undefined): MembershipDrift {
  const desired = statefulSet?.spec?.replicas;
  const voters = view.assessment.voters.length;
  if (view.committed === undefined || desired === undefined || desired === voters) {
    return { kind: 'none' };
  }
  const counts = `committed config has ${voters} voters, StatefulSet has ${desired} pods`;
  const transit = view.members.filter((member) => member.hasPod && !member.inConfig);
  const podCount = view.members.filter((member) => member.hasPod).length;
  if (transit.length > 0) {
    return { kind: 'scaling', message: `${counts}; ${transit.map(describeTransit).join('; ')}` };
  }
  if (podCount !== desired) {
    return { kind: 'scaling', message: `${counts}; ${podCount} of ${desired} pods exist` };
  }
  return { kind: 'mismatch', message: counts };
}

function describeTransit(member: MemberView): string {
  return member.health.serving
    ? `${memberName(member)} runs as a non-voting ${member.health.role}`
    : `${memberName(member)} is starting outside the committed config`;
}
