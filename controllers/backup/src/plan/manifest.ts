// A backup's objects and manifest (pure): the records in the order the dump gives them (each znode after its parent),
// cut into objects of gzip-compressed JSON lines as they come, at a count of records or a size of their text,
// whichever comes first, so that a run holds one object's records at a time however large the tree; each object's
// SHA-256 and size in the manifest. `checkObject` is what a restore verifies each object by: a truncated or altered
// object does not match its entry.
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { BACKUP_FORMAT, chunkObjectName, type BackupManifest, type ZnodeRecord } from '@zk-oam/apis';

export type ObjectEntry = BackupManifest['objects'][number];

/** Where an object is cut: a few MB compressed for small znodes, so that no object needs a multipart upload. */
export interface ObjectLimits {
  readonly records: number;
  /** Bytes of JSON lines (before compression); a znode holds at most 1 MiB, so an object stays under a few MiB more. */
  readonly bytes: number;
}

export const OBJECT_LIMITS: ObjectLimits = { records: 10_000, bytes: 8 * 1024 * 1024 };

export interface PackedObject {
  readonly name: string;
  readonly body: Buffer;
  readonly entry: ObjectEntry;
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

/** Records cut into objects as they come: `add` gives back an object once one is full, `last` what is left. */
export class ObjectCutter {
  private lines: string[] = [];
  private bytes = 0;
  private readonly cut: ObjectEntry[] = [];

  constructor(private readonly limits: ObjectLimits = OBJECT_LIMITS) {}

  /** The entries of the objects cut so far, in order: the manifest's. */
  get entries(): readonly ObjectEntry[] {
    return this.cut;
  }

  add(record: ZnodeRecord): PackedObject | undefined {
    const line = `${JSON.stringify(record)}\n`;
    this.lines.push(line);
    this.bytes += Buffer.byteLength(line);
    return this.lines.length >= this.limits.records || this.bytes >= this.limits.bytes ? this.pack() : undefined;
  }

  /** What is left as the last object; an empty object when none was cut yet, so that every backup has one. */
  last(): PackedObject | undefined {
    return this.lines.length > 0 || this.cut.length === 0 ? this.pack() : undefined;
  }

  private pack(): PackedObject {
    const body = gzipSync(this.lines.join(''));
    const name = chunkObjectName(this.cut.length);
    const entry = { name, znodes: this.lines.length, sizeBytes: body.length, sha256: sha256(body) };
    this.cut.push(entry);
    this.lines = [];
    this.bytes = 0;
    return { name, body, entry };
  }
}

export function manifestOf(facts: BackupFacts, entries: readonly ObjectEntry[]): BackupManifest {
  return {
    format: BACKUP_FORMAT,
    id: facts.id,
    workload: facts.workload,
    zxid: `0x${facts.zxid.toString(16)}`,
    startedAt: facts.startedAt.toISOString(),
    finishedAt: facts.finishedAt.toISOString(),
    znodes: entries.reduce((sum, entry) => sum + entry.znodes, 0),
    objects: [...entries],
  };
}

/** A whole backup made at once from its records: what a run writes object by object (a restore's tests make theirs so). */
export function packBackup(records: readonly ZnodeRecord[], facts: BackupFacts, limits: ObjectLimits = OBJECT_LIMITS): PackedBackup {
  const cutter = new ObjectCutter(limits);
  const objects = records.map((record) => cutter.add(record)).filter((object) => object !== undefined);
  const last = cutter.last();
  return { objects: last === undefined ? objects : [...objects, last], manifest: manifestOf(facts, cutter.entries) };
}

export type ObjectCheck = { readonly ok: true } | { readonly ok: false; readonly reason: string };

/** Whether an object read back is the one its manifest entry describes. */
export function checkObject(entry: ObjectEntry, body: Buffer): ObjectCheck {
  if (body.length !== entry.sizeBytes) return { ok: false, reason: `${entry.name} has ${String(body.length)} bytes, the manifest says ${String(entry.sizeBytes)} (truncated or replaced)` };
  const actual = sha256(body);
  return actual === entry.sha256 ? { ok: true } : { ok: false, reason: `${entry.name} has SHA-256 ${actual}, the manifest says ${entry.sha256} (corrupted)` };
}

/** A dumped znode as a backup keeps it. */
export function recordOf(znode: { readonly path: string; readonly data: Buffer; readonly acl: readonly ZnodeRecord['acl'][number][] }): ZnodeRecord {
  return { path: znode.path, data: znode.data.toString('base64'), acl: [...znode.acl] };
}
