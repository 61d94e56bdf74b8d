// Steps of a run: read the target's credentials, dump the tree through the superuser's session (on a follower when
// there is one) into the target as it is read (store/backup-writer.ts), then the manifest (a backup exists once its
// manifest does), then apply retention. What fails is a failed run, recorded with its reason; only a bug throws.
import {
  adminReach,
  backupIdAt,
  kubernetesTime,
  superuserPasswordRef,
  targetPrefix,
  workloadBackupsPrefix,
  type BackupRun,
  type ZookeeperBackup,
  type ZookeeperWorkload,
} from '@zk-oam/apis';
import { readSecretValue, type ReconcileContext } from '@zk-oam/runtime';
import type { AdminTarget, TreeDump } from '@zk-oam/zookeeper';
import { planRetention, type RunTrigger } from '../plan/index.js';
import { BackupWriter } from '../store/backup-writer.js';
import type { ObjectStore } from '../store/object-store.js';
import type { BackupReconcilerDependencies } from './dependencies.js';
import { inRunStep, RunFailure } from './errors.js';
import { openTargetStore, type TargetStore } from './target.js';

export interface RunOutcome {
  readonly run: BackupRun;
  /** Why the run failed: the Ready condition's reason. */
  readonly failure: RunFailure | undefined;
  /** Backups retention deleted after a successful run, and why it could not, if it could not. */
  readonly deleted: readonly string[];
  readonly retentionError: string | undefined;
}

export interface RunTarget {
  readonly backup: ZookeeperBackup;
  readonly workload: ZookeeperWorkload;
  readonly targets: readonly AdminTarget[];
  readonly trigger: RunTrigger;
}

async function dumpWorkload(deps: BackupReconcilerDependencies, workload: ZookeeperWorkload, targets: readonly AdminTarget[], writer: BackupWriter): Promise<TreeDump & { readonly member: string }> {
  const { name, namespace = '' } = workload.metadata;
  const { secret, key } = superuserPasswordRef(workload);
  const password = await inRunStep('ReadCredentials', 'SuperuserSecretUnusable', () => readSecretValue(deps.client, secret, key));
  const access = await inRunStep('ReadCredentials', 'TlsSecretUnusable', () => adminReach(name, namespace, workload.spec.tls, (ref) => readSecretValue(deps.client, ref.secret, ref.key)));
  return inRunStep('Dump', 'ZooKeeperUnavailable', async () => {
    const dumper = await deps.connectDumper(targets, access, password);
    try {
      return { ...(await dumper.dump(writer, deps.timing.dumpAttempts)), member: dumper.member };
    } finally {
      dumper.close();
    }
  });
}

export async function runBackup(deps: BackupReconcilerDependencies, target: RunTarget, log: ReconcileContext['log']): Promise<RunOutcome> {
  const { backup, workload, trigger } = target;
  const startedAt = deps.now();
  const id = backupIdAt(startedAt);
  const prefix = workloadBackupsPrefix(targetPrefix(backup.spec.target), workload.metadata.namespace ?? '', workload.metadata.name);
  const base = { id, startedAt: kubernetesTime(startedAt), trigger };
  let opened: TargetStore | undefined;
  try {
    opened = await inRunStep('ReadCredentials', 'TargetCredentialsUnusable', () => openTargetStore(deps, backup, id, log));
    const store = opened.store;
    const writer = new BackupWriter(store, `${prefix}${id}/`);
    const dump = await dumpWorkload(deps, workload, target.targets, writer);
    log.info({ id, member: dump.member, znodes: dump.znodes, zxid: `0x${dump.zxid.toString(16)}`, attempts: dump.attempts, ms: deps.now().getTime() - startedAt.getTime() }, 'tree dumped');
    const facts = { id, workload: { namespace: workload.metadata.namespace ?? '', name: workload.metadata.name, uid: workload.metadata.uid ?? '' }, zxid: dump.zxid, startedAt, finishedAt: deps.now() };
    const { manifest, sizeBytes } = await inRunStep('Upload', 'TargetUnavailable', () => writer.finish(facts));
    const run: BackupRun = { ...base, finishedAt: kubernetesTime(deps.now()), outcome: 'Succeeded', location: store.location(`${prefix}${id}/`), zxid: manifest.zxid, znodes: manifest.znodes, member: dump.member, sizeBytes };
    log.info({ id, location: run.location, sizeBytes }, 'backup uploaded');
    return { run, failure: undefined, ...(await applyRetention(store, prefix, backup, deps.now(), log)) };
  } catch (error) {
    if (!(error instanceof RunFailure)) throw error;
    log.warn({ id, step: error.step, category: error.category, err: error.cause }, 'backup failed');
    return { run: { ...base, finishedAt: kubernetesTime(deps.now()), outcome: 'Failed', message: error.message.slice(0, 4096) }, failure: error, deleted: [], retentionError: undefined };
  } finally {
    await opened?.release();
  }
}

async function applyRetention(store: ObjectStore, prefix: string, backup: ZookeeperBackup, now: Date, log: ReconcileContext['log']): Promise<Pick<RunOutcome, 'deleted' | 'retentionError'>> {
  try {
    const plan = planRetention(await store.list(prefix), prefix, backup.spec.retention, now);
    await store.delete(plan.keys);
    if (plan.keys.length > 0) log.info({ expired: plan.expired, incomplete: plan.incomplete }, 'retention applied');
    return { deleted: plan.expired, retentionError: undefined };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    log.warn({ err: error }, 'retention failed');
    return { deleted: [], retentionError: message };
  }
}
