// The znode's status from what this reconcile concluded (pure): the path, whether it exists, the connect string and
// principal, and the Ready and Synced conditions, set by the kit's setConditions.
import type { Condition, ZnodeReason, ZookeeperZnodeStatus } from '@zk-oam/apis';
import { observedGeneration, setConditions, withInvalidSpec, type ConditionContext, type ConditionVerdict } from '@zk-oam/runtime';
import type { Finding } from './verdict.js';

/** A condition before its time is stamped; its reason is one docs/troubleshooting.md explains. */
type Verdict = ConditionVerdict & { reason: ZnodeReason };

/** Synced says the reconcile did all it could; a failed step sets it False (the kit's reportFailures). */
const SYNCED: Verdict = { type: 'Synced', status: 'True', reason: 'Synced', message: 'the last reconcile did all it had to do' };

export function nextStatus(previous: ZookeeperZnodeStatus | undefined, finding: Finding, context: ConditionContext): ZookeeperZnodeStatus {
  const base = { ...previous, ...observedGeneration(context) };
  const stamp = (verdicts: Verdict[]): Condition[] => setConditions(previous?.conditions, verdicts, context);
  switch (finding.kind) {
    case 'Invalid':
      return withInvalidSpec(previous, finding.message, context);
    case 'Waiting':
    case 'Refused':
      // What the last look found of the path stays: the workload's absence, or its refusal, says nothing of it.
      return { ...base, conditions: stamp([{ type: 'Ready', status: 'False', reason: finding.reason, message: finding.message }, SYNCED]) };
    case 'Conflict': {
      // The path is not this znode's: nothing of it is claimed in the status.
      const { path: _path, exists: _exists, connectString: _connect, principal: _principal, ...rest } = base;
      return { ...rest, conditions: stamp([{ type: 'Ready', status: 'False', reason: 'PathConflict', message: finding.message }, SYNCED]) };
    }
    case 'Deleting':
      return { ...base, conditions: stamp([{ type: 'Ready', status: 'False', reason: 'Deleting', message: finding.message }, SYNCED]) };
    case 'Served': {
      const { principal: _principal, ...rest } = base;
      const ready: Verdict =
        finding.pending === undefined
          ? { type: 'Ready', status: 'True', reason: 'Available', message: `${finding.path} exists; clients connect with ${finding.connection.connectString}` }
          : { type: 'Ready', status: 'False', reason: 'CredentialsPending', message: finding.pending };
      return {
        ...rest,
        path: finding.path,
        exists: true,
        connectString: finding.connection.connectString,
        ...(finding.principal === undefined ? {} : { principal: finding.principal }),
        conditions: stamp([ready, SYNCED]),
      };
    }
  }
}
