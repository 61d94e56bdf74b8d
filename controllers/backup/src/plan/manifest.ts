// A dump packed into the objects of a backup and its manifest (pure): the records in path order, a chunk of them per
// object as gzip-compressed JSON lines, each object's SHA-256 and size in the manifest. `checkObject` is what a restore
// verifies each object by: a truncated or altered object does not match its entry.
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { BACKUP_FORMAT, chunkObjectName, type BackupManifest, type ZnodeRecord } from '@zk-oam/apis';

/** Records per object: a few MB compressed for small znodes, so that no object needs a multipart upload. */
export const RECORDS_PER_OBJECT = 10_000;

export interface PackedObject {
  readonly name: string;
  readonly body: Buffer;
}

export interface PackedBackup {
  readonly objects: readonly PackedObject[];
  readonly manifest: BackupManifest;
}

export interface BackupFacts {
  readonly id: string;
  readonly workload: BackupManifest['workload'];
  readonly zxid: bigint;
  readonly startedAt: Date;
  readonly finishedAt: Date;
}

export function sha256(body: Buffer): string {
  return createHash('sha256').update(body).digest('hex');
}

export function packBackup(records: readonly ZnodeRecord[], facts: BackupFacts, perObject = RECORDS_PER_OBJECT): PackedBackup {
  const objects: PackedObject[] = [];
  const entries: BackupManifest['objects'] = [];
  for (let start = 0, index = 0; start < records.length || index === 0; start += perObject, index++) {
    const chunk = records.slice(start, start + perObject);
    const body = gzipSync(chunk.map((record) => `${JSON.stringify(record)}\n`).join(''));
    const name = chunkObjectName(index);
    objects.push({ name, body });
    entries.push({ name, znodes: chunk.length, sizeBytes: body.length, sha256: sha256(body) });
  }
  const manifest: BackupManifest = {
    format: BACKUP_FORMAT,
    id: facts.id,
    workload: facts.workload,
    zxid: `0x${facts.zxid.toString(16)}`,
    startedAt: facts.startedAt.toISOString(),
    finishedAt: facts.finishedAt.toISOString(),
    znodes: records.length,
    objects: entries,
  };
  return { objects, manifest };
}

export type ObjectCheck = { readonly ok: true } | { readonly ok: false; readonly reason: string };

/** Whether an object read back is the one its manifest entry describes. */
export function checkObject(entry: BackupManifest['objects'][number], body: Buffer): ObjectCheck {
  if (body.length !== entry.sizeBytes) return { ok: false, reason: `${entry.name} has ${String(body.length)} bytes, the manifest says ${String(entry.sizeBytes)} (truncated or replaced)` };
  const actual = sha256(body);
  return actual === entry.sha256 ? { ok: true } : { ok: false, reason: `${entry.name} has SHA-256 ${actual}, the manifest says ${entry.sha256} (corrupted)` };
}

/** A dumped znode as a backup keeps it. */
export function recordOf(znode: { readonly path: string; readonly data: Buffer; readonly acl: readonly ZnodeRecord['acl'][number][] }): ZnodeRecord {
  return { path: znode.path, data: znode.data.toString('base64'), acl: [...znode.acl] };
}
