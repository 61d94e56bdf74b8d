// The restore of spec.restoreFrom, one step of the workload reconcile, run on every look until the status records it
// done. Each look starts again from the store and the ensemble, so a crash at any line is finished by the next:
//   1. the backup, read whole and verified (manifest format, every object's size and SHA-256, the records) before
//      anything is written, once the member pods have addresses (before, there is nothing to write into, and the
//      store is not read); `latest` is resolved once and kept in the status;
//   2. the ensemble, through the superuser's session: no quorum yet is a wait; any znode the backup does not hold, or
//      any znode at all before the restore was recorded as started, is a refusal: a restore never merges into data;
//   3. the start recorded in the status (phase Restoring with startedAt) before the first write, so that a later look
//      knows the znodes it finds are its own;
//   4. the znodes written (an interrupted write is finished by overwriting), then phase Restored.
// What cannot be restored is a record (phase Refused, its reason and message) and a Warning Event, not an error; it is
// attempted again after a backoff (retry.ts), since the store may be mended, not at every look.
import { isCatalogued, kubernetesTime, LATEST_BACKUP, superuserPasswordRef, targetPrefix, workloadBackupsPrefix, type RestoreReason, type RestoreStatus, type ZookeeperWorkload, WORKLOAD_REASONS } from '@zk-oam/apis';
import { BackupRefusedError, newestBackupId, ObjectStoreError, readVerifiedBackup, type TargetStore, type VerifiedBackup } from '@zk-oam/backup/store';
import { readSecretValue, SecretValueError, type KubeObject, type ReconcileContext } from '@zk-oam/runtime';
import { ZooKeeperConnectionError, ZooKeeperOperationError, type AdminTarget, type MemberAccess } from '@zk-oam/zookeeper';
import type { WorkloadReconcilerDependencies } from '../reconcile/dependencies.js';
import { memberPods } from '../reconcile/views.js';
import { openRestoreSource } from './open-source.js';
import { attemptDue, withRetry } from './retry.js';

type Deps = Pick<WorkloadReconcilerDependencies, 'client' | 'caches' | 'recorder' | 'now' | 'restore'>;
type Log = ReconcileContext['log'];

/** Paths a refusal for foreign znodes names. */
const SHOWN_PATHS = 5;

function refused(reason: Exclude<RestoreReason, 'Restoring'>, message: string, kept: Partial<RestoreStatus>): RestoreStatus {
  return { ...kept, phase: 'Refused', reason, message: message.slice(0, 4096) };
}

function waiting(message: string, kept: Partial<RestoreStatus>): RestoreStatus {
  return { ...kept, phase: 'Restoring', reason: 'Restoring', message };
}

/** The members a restore writes into: their pods with an IP, and the port and TLS to reach them by. */
interface MemberSession {
  readonly targets: readonly AdminTarget[];
  readonly access: MemberAccess;
}

/** The member pods with an IP, as the superuser's session dials them. */
function memberTargets(deps: Deps, workload: ZookeeperWorkload): AdminTarget[] {
  return memberPods(deps.caches.pods, workload).members.flatMap(({ pod, myid, ip }) => (ip === undefined ? [] : [{ pod, myid, ip }]));
}

/** Steps 2 to 4, with the backup verified: what the ensemble holds decides between refusing, recording the start, and writing. */
async function writeInto(deps: Deps, workload: ZookeeperWorkload, members: MemberSession, backup: VerifiedBackup, kept: RestoreStatus, log: Log): Promise<RestoreStatus> {
  const { targets, access } = members;
  const { secret, key } = superuserPasswordRef(workload);
  const password = await readSecretValue(deps.client, secret, key);
  let restorer;
  try {
    restorer = await deps.restore.connectRestorer(targets, access, password);
  } catch (error) {
    if (error instanceof ZooKeeperConnectionError) return waiting(`backup verified; waiting for a quorum (${error.message})`, kept);
    throw error;
  }
  try {
    const own = new Set(backup.records.map((record) => record.path));
    const existing = await restorer.existingPaths();
    const foreign = kept.startedAt === undefined ? existing : existing.filter((path) => !own.has(path));
    if (foreign.length > 0) {
      const shown = `${foreign.slice(0, SHOWN_PATHS).join(', ')}${foreign.length > SHOWN_PATHS ? ', ...' : ''}`;
      return refused('RestoreTargetNotEmpty', `the ensemble holds ${String(foreign.length)} znodes the restore did not write (${shown}); a restore never merges into data`, kept);
    }
    if (kept.startedAt === undefined) return waiting('backup verified, the ensemble empty; writing once this is recorded', { ...kept, startedAt: kubernetesTime(deps.now()) });
    const startedMs = deps.now().getTime();
    const znodes = backup.records.map((record) => ({ path: record.path, data: Buffer.from(record.data, 'base64'), acl: record.acl }));
    const created = await restorer.write(znodes);
    log.info({ backup: kept.backup, zxid: kept.zxid, znodes: znodes.length, created, ms: deps.now().getTime() - startedMs }, 'backup restored');
    return { ...kept, phase: 'Restored', restoredAt: kubernetesTime(deps.now()), reason: undefined, message: undefined };
  } catch (error) {
    if (error instanceof ZooKeeperConnectionError) return waiting(`the ensemble was lost while restoring; trying again (${error.message})`, kept);
    if (error instanceof ZooKeeperOperationError) return refused('RestoreWriteRefused', `ZooKeeper refused a write of the restore: ${error.message}`, kept);
    throw error;
  } finally {
    restorer.close();
  }
}

/** What the target's store refused or the backup failed, as a refusal; any other error is thrown on. */
function refusalOf(error: unknown, kept: Partial<RestoreStatus>): RestoreStatus {
  if (error instanceof SecretValueError) return refused('RestoreSourceUnavailable', `the target's Secret ${error.message}`, kept);
  if (error instanceof BackupRefusedError) return refused(error.reason, error.message, kept);
  if (error instanceof ObjectStoreError) return refused('RestoreSourceUnavailable', error.message, kept);
  throw error;
}

/** Step 1, then the rest: the backup named (or the one this restore started with), verified, then written. */
async function attempt(deps: Deps, workload: ZookeeperWorkload, access: MemberAccess, stored: RestoreStatus | undefined, log: Log): Promise<RestoreStatus> {
  const from = workload.spec.restoreFrom;
  if (from === undefined) throw new Error('attempt needs spec.restoreFrom');
  const namespace = workload.metadata.namespace ?? '';
  const started = stored?.startedAt === undefined ? {} : { backup: stored.backup, location: stored.location, zxid: stored.zxid, znodes: stored.znodes, startedAt: stored.startedAt };
  // Nothing to write into yet: the store is not read (for a claim, no Job started) at every look while the pods start.
  const targets = memberTargets(deps, workload);
  if (targets.length === 0) return waiting('waiting for the members to start', started);
  let source: TargetStore;
  try {
    source = await openRestoreSource(deps, workload, log);
  } catch (error) {
    return refusalOf(error, started);
  }
  const { store } = source;
  try {
    const prefix = workloadBackupsPrefix(targetPrefix(from.target), from.workload.namespace ?? namespace, from.workload.name);
    const id = started.backup ?? (from.backup === LATEST_BACKUP ? await newestBackupId(store, prefix) : from.backup);
    if (id === undefined) return refused('BackupNotFound', `no backup with a manifest under ${store.location(prefix)}`, started);
    const backup = await readVerifiedBackup(store, prefix, id);
    const facts = { backup: id, location: store.location(`${prefix}${id}/`), zxid: backup.manifest.zxid, znodes: backup.manifest.znodes };
    return await writeInto(deps, workload, { targets, access }, backup, { ...facts, ...started, phase: 'Restoring' }, log);
  } catch (error) {
    return refusalOf(error, started);
  } finally {
    await source.release();
  }
}

/**
 * A Normal Event when the restore is done; a Warning at each refused attempt: a repeat of the same refusal bumps its
 * Event's series count, which so counts the attempts (a few, with the backoff).
 */
async function announce(deps: Deps, raw: KubeObject, next: RestoreStatus): Promise<void> {
  if (next.phase === 'Restored') {
    const note = `backup ${next.backup ?? ''} restored: ${String(next.znodes ?? 0)} znodes as of zxid ${next.zxid ?? ''} of the source ensemble`;
    await deps.recorder.record(raw, { type: 'Normal', reason: 'Restored', action: 'Restore', note });
    return;
  }
  const reason = next.reason;
  if (next.phase !== 'Refused' || reason === undefined || !isCatalogued(WORKLOAD_REASONS, reason)) return;
  await deps.recorder.record(raw, { type: 'Warning', reason, action: 'Restore', note: next.message ?? '' });
}

/**
 * The restore's record for the status: undefined for a workload without spec.restoreFrom, the stored one once it is
 * Restored, otherwise the outcome of one more attempt.
 */
export async function restoreBackup(deps: Deps, raw: KubeObject, workload: ZookeeperWorkload, access: MemberAccess, log: Log): Promise<RestoreStatus | undefined> {
  if (workload.spec.restoreFrom === undefined) return undefined;
  const stored = workload.status?.restore;
  if (stored?.phase === 'Restored') return stored;
  const generation = workload.metadata.generation ?? 0;
  if (!attemptDue(stored, generation, deps.now())) return stored;
  const next = withRetry(await attempt(deps, workload, access, stored, log), stored, generation, deps.now());
  if (next.phase === 'Refused') log.warn({ reason: next.reason, message: next.message, attempts: next.attempts, nextAttemptAt: next.nextAttemptAt }, 'restore refused');
  await announce(deps, raw, next);
  return next;
}
