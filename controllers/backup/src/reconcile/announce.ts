// The Events a reconcile announces (pure): every run is news of its own (a Normal Event when it succeeded, a Warning
// with its reason when it failed, however many failed before it), retention's deletions, and Ready newly False for a
// reason a person must fix (once, not per reconcile).
import type { BackupReason, ZookeeperBackupStatus } from '@zk-oam/apis';
import { warningOnNews, type EventDetails } from '@zk-oam/runtime';
import type { Finding } from './verdict.js';

const READY_WARNINGS = {
  InvalidSpec: 'Validate',
  WorkloadNotFound: 'FindWorkload',
  WorkloadInvalid: 'ReadWorkload',
} as const satisfies Partial<Record<BackupReason, string>>;

function runEvents(finding: Extract<Finding, { kind: 'Ran' }>): EventDetails<BackupReason>[] {
  const { run, failure, deleted, retentionError } = finding.outcome;
  if (failure !== undefined) return [{ type: 'Warning', reason: failure.category, action: failure.step, note: `backup ${run.id} failed: ${failure.message}` }];
  const events: EventDetails<BackupReason>[] = [
    { type: 'Normal', reason: 'BackupSucceeded', action: 'Backup', note: `backup ${run.id}: ${String(run.znodes ?? 0)} znodes as of zxid ${run.zxid ?? '?'} at ${run.location ?? '?'}` },
  ];
  if (deleted.length > 0) events.push({ type: 'Normal', reason: 'BackupsDeleted', action: 'Retention', note: `deleted ${deleted.join(', ')}` });
  if (retentionError !== undefined) events.push({ type: 'Warning', reason: 'RetentionFailed', action: 'Retention', note: retentionError });
  return events;
}

export function eventsOf(previous: ZookeeperBackupStatus | undefined, next: ZookeeperBackupStatus, finding: Finding): EventDetails<BackupReason>[] {
  if (finding.kind === 'Ran') return runEvents(finding);
  const warning = warningOnNews(previous?.conditions, next.conditions, 'Ready', READY_WARNINGS);
  return warning === undefined ? [] : [warning];
}
