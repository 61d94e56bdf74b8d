// The scale trait's planner: from observed state only, the next single step towards the target size.
//
// Pipeline: read membership (block on states the plan does not own) -> decide (at rest, or one member in transit)
// -> settle the step record and its clock. Pure: same input, same plan, so a controller killed anywhere resumes.
import type { ScalePlan } from './action.js';
import { decideAtRest } from './at-rest.js';
import type { Decision } from './decision.js';
import { decideInTransit } from './in-transit.js';
import type { ScalePlanInput } from './input.js';
import { readMembership, type Membership } from './membership.js';
import { phaseOf, settleStep } from './progress.js';

export function planScale(input: ScalePlanInput): ScalePlan {
  const reading = readMembership(input);
  const decision = reading.ok ? decide(reading.membership, input) : reading.decision;
  const { action, step } = settleStep(decision, {
    recorded: input.recordedStep,
    statefulSet: input.statefulSet?.name,
    now: input.now,
    stepTimeoutSeconds: input.trait.stepTimeoutSeconds,
  });
  const sizes = { current: committedVoters(input), target: input.trait.replicas };
  return { action, phase: phaseOf(action, step, sizes), ...sizes, step };
}

function committedVoters(input: ScalePlanInput): number | undefined {
  return input.committed.ok ? input.committed.config.servers.filter((server) => server.role === 'participant').length : undefined;
}

/** readMembership guarantees the workload asks for the voters or the voters plus one. */
function decide(membership: Membership, input: ScalePlanInput): Decision {
  return membership.workloadReplicas === membership.size ? decideAtRest(membership, input) : decideInTransit(membership, input);
}
