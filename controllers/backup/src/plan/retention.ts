// Which backups retention lets go of (pure). The target is the record, not the status: the candidates are the backups
// whose manifests the store lists. Kept: the newest `count`, none older than `maxAgeHours`, whichever keeps fewer; the
// newest backup is kept whatever its age, so that retention never leaves a workload with none. Objects of a run that
// never wrote its manifest (it failed midway) are not a backup: they go once a later backup exists.
import { backupTimeOf, MANIFEST_OBJECT, type BackupRetention } from '@zk-oam/apis';

export interface StoredBackup {
  readonly id: string;
  readonly finishedAt: Date;
}

const HOUR_MS = 3_600_000;

/** The ids to delete, oldest first. */
export function expiredBackups(backups: readonly StoredBackup[], retention: BackupRetention, now: Date): string[] {
  const newestFirst = [...backups].sort((a, b) => b.finishedAt.getTime() - a.finishedAt.getTime() || (a.id < b.id ? 1 : -1));
  const expired = newestFirst.filter((backup, index) => {
    if (index === 0) return false;
    if (retention.count !== undefined && index >= retention.count) return true;
    return retention.maxAgeHours !== undefined && now.getTime() - backup.finishedAt.getTime() > retention.maxAgeHours * HOUR_MS;
  });
  return expired.map((backup) => backup.id).reverse();
}

export interface RetentionPlan {
  /** Backups retention lets go of, oldest first. */
  readonly expired: readonly string[];
  /** Runs older than the newest backup that left objects and no manifest. */
  readonly incomplete: readonly string[];
  /** What to delete, in order: each backup's manifest before its other objects, so that none is left half there. */
  readonly keys: readonly string[];
}

/** From every key under a workload's prefix (`<prefix><id>/<object>`): what retention deletes. */
export function planRetention(keys: readonly string[], prefix: string, retention: BackupRetention, now: Date): RetentionPlan {
  const byId = new Map<string, string[]>();
  for (const key of keys) {
    const [id, ...rest] = key.slice(prefix.length).split('/');
    if (id === undefined || rest.length === 0 || backupTimeOf(id) === undefined) continue;
    byId.set(id, [...(byId.get(id) ?? []), key]);
  }
  const isBackup = (id: string): boolean => (byId.get(id) ?? []).some((key) => key.endsWith(`/${MANIFEST_OBJECT}`));
  const ids = [...byId.keys()].sort();
  const backups = ids.filter(isBackup).map((id) => ({ id, finishedAt: backupTimeOf(id) ?? now }));
  const expired = expiredBackups(backups, retention, now);
  const newest = backups.map((backup) => backup.id).at(-1);
  const incomplete = ids.filter((id) => !isBackup(id) && newest !== undefined && id < newest);
  const manifestFirst = (id: string): string[] => (byId.get(id) ?? []).sort((a, b) => Number(b.endsWith(`/${MANIFEST_OBJECT}`)) - Number(a.endsWith(`/${MANIFEST_OBJECT}`)));
  return { expired, incomplete, keys: [...expired, ...incomplete].flatMap(manifestFirst) };
}
