// The backup reconcile, a named pipeline: read -> schedule (is a run due?) -> workload (can it be backed up now?) ->
// run (dump, upload, retention) -> report -> requeue. A run's outcome is recorded in the status and announced, and the
// schedule, not the queue's backoff, says when the next one is: the queue retries only a reconcile that could not
// write its status. Every step re-reads state, so a controller killed mid-run starts the due run again (the objects of
// the run it lost, without a manifest, are no backup, and retention removes them).
import { ZOOKEEPER_BACKUP, zookeeperBackupSchema, type ZookeeperBackup } from '@zk-oam/apis';
import {
  done,
  invalidTraitVerdict,
  readTrait,
  reportStatus,
  type KubeObject,
  type ObjectKey,
  type ReconcileContext,
  type Reconciler,
  type ReconcileResult,
} from '@zk-oam/runtime';
import { cronSchedule, decideRun, type RunDecision } from '../plan/index.js';
import { eventsOf } from './announce.js';
import type { BackupReconcilerDependencies } from './dependencies.js';
import { observeWorkload } from './observe.js';
import { nextReconcile } from './requeue.js';
import { BACKUP_STATUS } from './resources.js';
import { runBackup } from './run.js';
import { nextStatus } from './status.js';
import type { Finding, WaitReason } from './verdict.js';

const WAIT_REASONS = { missing: 'WorkloadNotFound', deleting: 'WorkloadDeleting', invalid: 'WorkloadInvalid' } as const satisfies Record<string, WaitReason>;

export function backupReconciler(deps: BackupReconcilerDependencies): Reconciler {
  return (key, context) => reconcileBackup(deps, key, context);
}

export async function reconcileBackup(deps: BackupReconcilerDependencies, key: ObjectKey, context: ReconcileContext): Promise<ReconcileResult> {
  const reading = readTrait(deps.caches, zookeeperBackupSchema, ZOOKEEPER_BACKUP.kind, key);
  if (reading.kind === 'absent') return done;
  const now = deps.now();
  const finding = reading.kind === 'invalid' ? invalidTraitVerdict(reading.error, context.log) : await conclude(deps, reading.trait, now, context);
  await report(deps, reading.raw, finding);
  return nextReconcile(finding, deps.timing, deps.now());
}

async function conclude(deps: BackupReconcilerDependencies, backup: ZookeeperBackup, now: Date, context: ReconcileContext): Promise<Finding> {
  const schedule = backup.spec.schedule === undefined ? undefined : cronSchedule(backup.spec.schedule);
  if (schedule?.ok === false) return { kind: 'Invalid', message: schedule.message };
  const nextAfter = schedule?.nextAfter ?? ((): undefined => undefined);
  const status = backup.status;
  const lastStarted = status?.runs?.[0]?.startedAt;
  const decision: RunDecision = decideRun({
    spec: backup.spec,
    lastStartedAt: lastStarted === undefined ? undefined : new Date(lastStarted),
    observedRunTrigger: status?.observedRunTrigger,
    createdAt: new Date(backup.metadata.creationTimestamp ?? now.toISOString()),
    now,
    nextAfter,
  });
  if (decision.kind === 'wait') return { kind: 'Idle', reason: decision.reason, nextRunAt: decision.nextRunAt };
  const view = observeWorkload(deps.caches, backup);
  if (view.presence !== 'present') return { kind: 'Waiting', reason: WAIT_REASONS[view.presence], message: view.message };
  if (view.targets.length === 0) return { kind: 'Waiting', reason: 'WorkloadNotServing', message: `no member pod of ZookeeperWorkload ${view.workload.metadata.name} is ready` };
  const log = context.log.child({ workload: view.workload.metadata.name, trigger: decision.trigger });
  const outcome = await runBackup(deps, { backup, workload: view.workload, targets: view.targets, trigger: decision.trigger }, log);
  return { kind: 'Ran', outcome, observedRunTrigger: backup.spec.runTrigger, nextRunAt: nextAfter(new Date(outcome.run.startedAt)) };
}

/** The status the finding gives, written only when it changed, then the Events it announces. */
async function report(deps: BackupReconcilerDependencies, raw: KubeObject, finding: Finding): Promise<void> {
  const { previous, next } = await reportStatus(deps.client, BACKUP_STATUS, raw, deps.now(), (stored, context) => nextStatus(stored, finding, context));
  for (const event of eventsOf(previous, next, finding)) await deps.recorder.record(raw, event);
}
