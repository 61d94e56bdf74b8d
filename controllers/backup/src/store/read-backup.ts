// The reading side of a backup in its store, for the restore: which backup `latest` is, its manifest, and its records,
// every object checked against the manifest (size and SHA-256) before any record is decoded or returned. A refusal
// names which promise of the contract (apis/src/backup/contract.ts) the store's copy breaks.
import { gunzipSync } from 'node:zlib';
import {
  BACKUP_FORMAT,
  backupManifestSchema,
  backupTimeOf,
  MANIFEST_OBJECT,
  znodeRecordSchema,
  type BackupManifest,
  type RestoreReason,
  type ZnodeRecord,
} from '@zk-oam/apis';
import { checkObject } from '../plan/manifest.js';
import type { ObjectStore } from './object-store.js';

export type BackupRefusal = Extract<RestoreReason, 'BackupNotFound' | 'BackupInvalid' | 'BackupObjectMissing' | 'BackupCorrupted'>;

/** The backup in the store is not one a restore can give back; nothing should be written from it. */
export class BackupRefusedError extends Error {
  override readonly name = 'BackupRefusedError';
  constructor(
    readonly reason: BackupRefusal,
    message: string,
  ) {
    super(message);
  }
}

export interface VerifiedBackup {
  readonly manifest: BackupManifest;
  /** Every record of every object, in the objects' order (each znode after its parent). */
  readonly records: readonly ZnodeRecord[];
  /** Bytes read, the manifest included. */
  readonly sizeBytes: number;
}

/** The newest complete backup (one with a manifest) under a workload's prefix, undefined when there is none. */
export async function newestBackupId(store: ObjectStore, prefix: string): Promise<string | undefined> {
  const ids = (await store.list(prefix)).flatMap((key) => {
    const [id, object, ...rest] = key.slice(prefix.length).split('/');
    return id !== undefined && object === MANIFEST_OBJECT && rest.length === 0 && backupTimeOf(id) !== undefined ? [id] : [];
  });
  return ids.sort().at(-1);
}

function parseManifest(id: string, body: Buffer): BackupManifest {
  let json: unknown;
  try {
    json = JSON.parse(body.toString('utf8'));
  } catch (error) {
    throw new BackupRefusedError('BackupInvalid', `the manifest of backup ${id} is not JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  const format = typeof json === 'object' && json !== null && 'format' in json ? json.format : undefined;
  if (format !== BACKUP_FORMAT) throw new BackupRefusedError('BackupInvalid', `backup ${id} has format ${JSON.stringify(format)}; this controller reads ${BACKUP_FORMAT} only`);
  const parsed = backupManifestSchema.safeParse(json);
  if (!parsed.success) throw new BackupRefusedError('BackupInvalid', `the manifest of backup ${id} does not have the manifest's shape: ${parsed.error.message}`);
  if (parsed.data.id !== id) throw new BackupRefusedError('BackupInvalid', `the manifest under ${id} names backup ${parsed.data.id}`);
  if (parsed.data.objects.reduce((sum, entry) => sum + entry.znodes, 0) !== parsed.data.znodes) {
    throw new BackupRefusedError('BackupInvalid', `the manifest of backup ${id} counts ${String(parsed.data.znodes)} znodes, its objects another number`);
  }
  return parsed.data;
}

function decodeObject(entry: BackupManifest['objects'][number], body: Buffer): ZnodeRecord[] {
  let lines: string[];
  try {
    lines = gunzipSync(body).toString('utf8').split('\n').filter((line) => line !== '');
  } catch (error) {
    throw new BackupRefusedError('BackupInvalid', `${entry.name} is not gzip: ${error instanceof Error ? error.message : String(error)}`);
  }
  const records = lines.map((line, index) => {
    let parsed;
    try {
      parsed = znodeRecordSchema.safeParse(JSON.parse(line));
    } catch {
      parsed = undefined;
    }
    if (parsed?.success !== true) throw new BackupRefusedError('BackupInvalid', `record ${String(index + 1)} of ${entry.name} is not a znode record`);
    return parsed.data;
  });
  if (records.length !== entry.znodes) throw new BackupRefusedError('BackupInvalid', `${entry.name} holds ${String(records.length)} records, the manifest says ${String(entry.znodes)}`);
  return records;
}

/**
 * The backup `<prefix><id>/`, verified whole before anything of it is returned: the manifest is of our format and
 * shape, every object it lists is there with its size and SHA-256, and the records parse and add up.
 */
export async function readVerifiedBackup(store: ObjectStore, prefix: string, id: string): Promise<VerifiedBackup> {
  const manifestBody = await store.get(`${prefix}${id}/${MANIFEST_OBJECT}`);
  if (manifestBody === undefined) throw new BackupRefusedError('BackupNotFound', `backup ${id} has no manifest at ${store.location(`${prefix}${id}/${MANIFEST_OBJECT}`)}`);
  const manifest = parseManifest(id, manifestBody);
  const bodies: Buffer[] = [];
  for (const entry of manifest.objects) {
    const body = await store.get(`${prefix}${id}/${entry.name}`);
    if (body === undefined) throw new BackupRefusedError('BackupObjectMissing', `${entry.name} of backup ${id} is not in the store (${store.location(`${prefix}${id}/${entry.name}`)})`);
    const check = checkObject(entry, body);
    if (!check.ok) throw new BackupRefusedError('BackupCorrupted', `backup ${id}: ${check.reason}`);
    bodies.push(body);
  }
  const records = manifest.objects.flatMap((entry, index) => decodeObject(entry, bodies[index] ?? Buffer.alloc(0)));
  return { manifest, records, sizeBytes: bodies.reduce((sum, body) => sum + body.length, manifestBody.length) };
}
