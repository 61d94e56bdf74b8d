// A backup written to its store as the dump reads it (the dump's sink): each object put as soon as it is cut, one put
// at a time, and the dump held back while one object is being put and another waits, so that a run holds at most
// three objects' records (being put, waiting, being filled) and a record per read in flight, however large the tree. The manifest goes last: a backup exists once its manifest does. A walk
// tried again starts the objects over; objects of an earlier walk beyond the last one's are deleted before the
// manifest is written.
import { MANIFEST_OBJECT, type BackupManifest } from '@zk-oam/apis';
import type { DumpedZnode, DumpSink } from '@zk-oam/zookeeper';
import { manifestOf, ObjectCutter, OBJECT_LIMITS, recordOf, type BackupFacts, type ObjectLimits, type PackedObject } from '../plan/index.js';
import type { ObjectStore } from './object-store.js';

export interface WrittenBackup {
  readonly manifest: BackupManifest;
  /** The objects' and the manifest's bytes. */
  readonly sizeBytes: number;
}

export class BackupWriter implements DumpSink {
  private cutter: ObjectCutter;
  /** The puts queued, one at a time: the last one's end. It never rejects: a put's error is kept in `failure`. */
  private putting: Promise<void> = Promise.resolve();
  /** Objects cut and not yet put: beyond one, every `add` waits for them. */
  private queued = 0;
  private failure: unknown = undefined;
  /** Object names put by any walk: those the last walk did not write are left over. */
  private readonly written = new Set<string>();

  /** `directory`: the backup's key prefix, ending in "/". */
  constructor(
    private readonly store: ObjectStore,
    private readonly directory: string,
    private readonly limits: ObjectLimits = OBJECT_LIMITS,
  ) {
    this.cutter = new ObjectCutter(limits);
  }

  async begin(): Promise<void> {
    await this.settled();
    this.cutter = new ObjectCutter(this.limits);
  }

  async add(znode: DumpedZnode): Promise<void> {
    if (this.failure !== undefined) throw this.failure;
    const object = this.cutter.add(recordOf(znode));
    if (object !== undefined) this.put(object);
    if (this.queued > 1) await this.settled();
  }

  /** Puts what is left, removes what an earlier walk left over, then the manifest. */
  async finish(facts: BackupFacts): Promise<WrittenBackup> {
    const last = this.cutter.last();
    if (last !== undefined) this.put(last);
    await this.settled();
    const entries = this.cutter.entries;
    const current = new Set(entries.map((entry) => entry.name));
    await this.store.delete([...this.written].filter((name) => !current.has(name)).map((name) => `${this.directory}${name}`));
    const manifest = manifestOf(facts, entries);
    const body = Buffer.from(`${JSON.stringify(manifest, undefined, 2)}\n`);
    await this.store.put(`${this.directory}${MANIFEST_OBJECT}`, body, 'application/json');
    return { manifest, sizeBytes: entries.reduce((sum, entry) => sum + entry.sizeBytes, body.length) };
  }

  /** Every put queued has ended; the first that failed is thrown. */
  private async settled(): Promise<void> {
    await this.putting;
    if (this.failure !== undefined) throw this.failure;
  }

  private put(object: PackedObject): void {
    this.written.add(object.name);
    this.queued++;
    this.putting = this.putting
      .then(() => (this.failure === undefined ? this.store.put(`${this.directory}${object.name}`, object.body, 'application/gzip') : undefined))
      .catch((error: unknown) => {
        this.failure ??= error;
      })
      .finally(() => {
        this.queued--;
      });
  }
}
