import { gunzipSync } from 'node:zlib';
import { backupManifestSchema } from '@zk-oam/apis';
import { describe, expect, it } from 'vitest';
import { BackupWriter } from './backup-writer.js';
import type { ObjectStore } from './object-store.js';

/** A store in memory whose puts wait while it is held: a target slower than the dump. */
class HeldStore implements ObjectStore {
  readonly objects = new Map<string, Buffer>();
  readonly puts: string[] = [];
  private release: (() => void) | undefined;
  private gate: Promise<void> = Promise.resolve();
  failWith: Error | undefined;

  hold(): void {
    this.gate = new Promise((resolve) => (this.release = resolve));
  }
  open(): void {
    this.release?.();
  }
  location(key: string): string {
    return `memory://${key}`;
  }
  async put(key: string, body: Buffer): Promise<void> {
    await this.gate;
    if (this.failWith !== undefined) throw this.failWith;
    this.puts.push(key);
    this.objects.set(key, body);
  }
  get(key: string): Promise<Buffer | undefined> {
    return Promise.resolve(this.objects.get(key));
  }
  list(prefix: string): Promise<string[]> {
    return Promise.resolve([...this.objects.keys()].filter((key) => key.startsWith(prefix)).sort());
  }
  delete(keys: readonly string[]): Promise<void> {
    for (const key of keys) this.objects.delete(key);
    return Promise.resolve();
  }
  close(): void {}
}

const znode = (index: number) => ({ path: `/n${String(index).padStart(6, '0')}`, data: Buffer.alloc(100, 'x'), acl: [{ perms: 31, scheme: 'world', id: 'anyone' }] });
/** One record's JSON line is about 200 bytes: a 2,000-byte object holds 10. */
const LIMITS = { records: 1_000, bytes: 2_000 };
const facts = { id: '20261129T030000.000Z', workload: { namespace: 'ns', name: 'zk', uid: 'u1' }, zxid: 0x100000005n, startedAt: new Date(0), finishedAt: new Date(1) };

/** Whether the promise settles while the event loop runs what is ready. */
async function settles(promise: Promise<void>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

describe('BackupWriter', () => {
  it('cuts objects at their size and puts each while the dump goes on, the manifest last', async () => {
    const store = new HeldStore();
    const writer = new BackupWriter(store, 'b/', LIMITS);
    await writer.begin();
    for (let index = 0; index < 25; index++) await writer.add(znode(index));
    expect(store.puts).toEqual(['b/znodes-00000.jsonl.gz', 'b/znodes-00001.jsonl.gz']);
    const { manifest, sizeBytes } = await writer.finish(facts);
    expect(store.puts.at(-1)).toBe('b/manifest.json');
    expect(backupManifestSchema.parse(manifest).objects.map((entry) => entry.znodes)).toEqual([10, 10, 5]);
    expect(manifest.znodes).toBe(25);
    const lines = manifest.objects.flatMap((entry) => gunzipSync(store.objects.get(`b/${entry.name}`) ?? Buffer.alloc(0)).toString().trim().split('\n'));
    expect(lines.map((line) => (JSON.parse(line) as { path: string }).path)).toEqual(Array.from({ length: 25 }, (_, index) => znode(index).path));
    expect(sizeBytes).toBe([...store.objects.values()].reduce((sum, body) => sum + body.length, 0));
  });

  it('holds the dump back while the store is slower: at most two objects cut and not yet put', async () => {
    const store = new HeldStore();
    const writer = new BackupWriter(store, 'b/', LIMITS);
    await writer.begin();
    store.hold();
    let accepted = 0;
    while (await settles(writer.add(znode(accepted)))) accepted++;
    // The add that cut the second object waits, with every add after it, until the puts are done.
    expect(accepted).toBe(2 * 10 - 1);
    expect(await settles(writer.add(znode(accepted + 1)))).toBe(false);
    expect(store.puts).toEqual([]);
    store.open();
    await writer.finish(facts);
    expect(store.puts).toEqual(['b/znodes-00000.jsonl.gz', 'b/znodes-00001.jsonl.gz', 'b/znodes-00002.jsonl.gz', 'b/manifest.json']);
  });

  it('starts the objects over for a walk tried again, and deletes what the earlier walk left beyond the last one', async () => {
    const store = new HeldStore();
    const writer = new BackupWriter(store, 'b/', LIMITS);
    await writer.begin();
    for (let index = 0; index < 35; index++) await writer.add(znode(index));
    await writer.begin();
    for (let index = 0; index < 12; index++) await writer.add(znode(index));
    const { manifest } = await writer.finish(facts);
    expect(manifest.objects.map((entry) => entry.name)).toEqual(['znodes-00000.jsonl.gz', 'znodes-00001.jsonl.gz']);
    expect(await store.list('b/')).toEqual(['b/manifest.json', 'b/znodes-00000.jsonl.gz', 'b/znodes-00001.jsonl.gz']);
  });

  it('fails the dump with the store’s error, and writes no manifest', async () => {
    const store = new HeldStore();
    const writer = new BackupWriter(store, 'b/', LIMITS);
    await writer.begin();
    store.failWith = new Error('bucket gone');
    const added = async (): Promise<void> => {
      for (let index = 0; index < 100; index++) await writer.add(znode(index));
    };
    await expect(added()).rejects.toThrow('bucket gone');
    await expect(writer.finish(facts)).rejects.toThrow('bucket gone');
    expect(store.objects.size).toBe(0);
  });
});
