// What a backup is in its target, for the backup controller that writes it and the restore that will read it: where
// its objects are, and its manifest (the checksums of its objects, the zxid it is consistent at). A backup exists once
// its manifest does: the manifest is written last and deleted first.
import { z } from 'zod';

/** The manifest's format; a restore refuses any other. */
export const BACKUP_FORMAT = 'zk-oam.dev/backup/v1';
export const MANIFEST_OBJECT = 'manifest.json';

/** Where one workload's backups go under a target's prefix: `<prefix>/<namespace>/<workload>/`. */
export function workloadBackupsPrefix(prefix: string | undefined, namespace: string, workload: string): string {
  return `${prefix === undefined ? '' : `${prefix}/`}${namespace}/${workload}/`;
}

/** A backup's id: its start, in UTC to the millisecond (`20261129T030000.000Z`); ids sort as their times do. */
export function backupIdAt(startedAt: Date): string {
  return startedAt.toISOString().replaceAll('-', '').replaceAll(':', '');
}

export const BACKUP_ID_PATTERN = /^\d{8}T\d{6}\.\d{3}Z$/;

/** The start a backup id names; undefined for a name that is not an id. */
export function backupTimeOf(id: string): Date | undefined {
  const match = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})\.(\d{3})Z$/.exec(id);
  return match === null ? undefined : new Date(`${match[1]}-${match[2]}-${match[3]}T${match[4]}:${match[5]}:${match[6]}.${match[7]}Z`);
}

/**
 * The n-th object of znode records of a backup: gzip-compressed JSON lines (`znodeRecordSchema`), in the order the dump
 * read them, each znode after its parent (a restore creating them in order finds every parent there).
 */
export function chunkObjectName(index: number): string {
  return `znodes-${String(index).padStart(5, '0')}.jsonl.gz`;
}

/** One persistent znode as a backup keeps it: its path, its data (base64) and its ACL. */
export const znodeRecordSchema = z.object({
  path: z.string().startsWith('/'),
  data: z.base64(),
  acl: z.array(z.object({ perms: z.int().min(0).max(31), scheme: z.string(), id: z.string() })).min(1),
});
export type ZnodeRecord = z.infer<typeof znodeRecordSchema>;

const sha256Schema = z.string().regex(/^[0-9a-f]{64}$/);

export const backupManifestSchema = z.object({
  format: z.literal(BACKUP_FORMAT),
  id: z.string().regex(BACKUP_ID_PATTERN),
  workload: z.object({ namespace: z.string(), name: z.string(), uid: z.string() }),
  /** The zxid every record is as of (hexadecimal, `0x...`): nothing the backup holds changed between it and the end of the run. */
  zxid: z.string().regex(/^0x[0-9a-f]+$/),
  startedAt: z.iso.datetime(),
  finishedAt: z.iso.datetime(),
  znodes: z.int().min(0),
  /** The objects of records, in order: each one's name under the backup, its record count, its size and SHA-256. */
  objects: z.array(z.object({ name: z.string(), znodes: z.int().min(0), sizeBytes: z.int().min(0), sha256: sha256Schema })),
});
export type BackupManifest = z.infer<typeof backupManifestSchema>;
