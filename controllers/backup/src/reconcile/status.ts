// The backup's status from what this reconcile concluded (pure): the runs, the newest successful one, the next
// scheduled run and the Ready condition, set by the kit's setConditions. While no run is due, Ready keeps what the last
// run said: a failed run stays visible until a run succeeds.
import { kubernetesTime, type BackupReason, type Condition, type ZookeeperBackupStatus } from '@zk-oam/apis';
import { observedGeneration, setConditions, withInvalidSpec, type ConditionContext, type ConditionVerdict } from '@zk-oam/runtime';
import { lastSuccessful, recordRun } from '../plan/index.js';
import type { Finding } from './verdict.js';

type Verdict = ConditionVerdict & { reason: BackupReason };

const IDLE_MESSAGES = {
  Suspended: 'spec.suspend is true: no run starts',
  Scheduled: 'no run has finished yet; the first is scheduled',
  Done: 'no run has finished yet',
} as const;

function readyAfterRun(finding: Extract<Finding, { kind: 'Ran' }>): Verdict {
  const { run, failure } = finding.outcome;
  if (failure !== undefined) return { type: 'Ready', status: 'False', reason: failure.category, message: `backup ${run.id} failed: ${failure.message}` };
  const message = `backup ${run.id}: ${String(run.znodes ?? 0)} znodes as of zxid ${run.zxid ?? '?'}, ${String(run.sizeBytes ?? 0)} bytes at ${run.location ?? '?'}`;
  return { type: 'Ready', status: 'True', reason: 'Available', message };
}

type Stamp = (verdict: Verdict) => Condition[];

function scheduled(at: Date | undefined): Pick<ZookeeperBackupStatus, 'nextRunAt'> {
  return at === undefined ? {} : { nextRunAt: kubernetesTime(at) };
}

function idleConditions(previous: ZookeeperBackupStatus | undefined, finding: Extract<Finding, { kind: 'Idle' }>, stamp: Stamp): Condition[] {
  const ready = previous?.conditions?.find((condition) => condition.type === 'Ready');
  const ran = (previous?.runs?.length ?? 0) > 0;
  if (finding.reason !== 'Suspended' && ran && ready !== undefined) return previous?.conditions ?? [];
  return stamp({ type: 'Ready', status: 'False', reason: finding.reason === 'Suspended' ? 'Suspended' : 'Scheduled', message: IDLE_MESSAGES[finding.reason] });
}

function ranStatus(previous: ZookeeperBackupStatus | undefined, finding: Extract<Finding, { kind: 'Ran' }>): Omit<ZookeeperBackupStatus, 'conditions'> {
  const runs = recordRun(previous?.runs, finding.outcome.run);
  const newest = lastSuccessful(runs, previous?.lastSuccessful);
  return {
    runs,
    ...(newest === undefined ? {} : { lastSuccessful: newest }),
    ...(finding.observedRunTrigger === undefined ? {} : { observedRunTrigger: finding.observedRunTrigger }),
    ...scheduled(finding.nextRunAt),
  };
}

export function nextStatus(previous: ZookeeperBackupStatus | undefined, finding: Finding, context: ConditionContext): ZookeeperBackupStatus {
  const { nextRunAt: _next, ...base } = { ...previous, ...observedGeneration(context) };
  const stamp: Stamp = (verdict) => setConditions(previous?.conditions, [verdict], context);
  switch (finding.kind) {
    case 'Invalid':
      return withInvalidSpec(previous, finding.message, context);
    case 'Waiting':
      return { ...base, conditions: stamp({ type: 'Ready', status: 'False', reason: finding.reason, message: finding.message }) };
    case 'Idle':
      return { ...base, ...scheduled(finding.nextRunAt), conditions: idleConditions(previous, finding, stamp) };
    case 'Ran':
      return { ...base, ...ranStatus(previous, finding), conditions: stamp(readyAfterRun(finding)) };
  }
}
