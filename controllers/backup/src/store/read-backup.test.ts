// The restore's reading of a backup against an in-memory store: a backup read back whole; each way a store's copy can
// break the contract refused with its reason, before any record is returned.
import { gzipSync } from 'node:zlib';
import { BACKUP_FORMAT, MANIFEST_OBJECT, type ZnodeRecord } from '@zk-oam/apis';
import { describe, expect, it } from 'vitest';
import { OBJECT_LIMITS, packBackup, sha256 } from '../plan/manifest.js';
import type { ObjectStore } from './object-store.js';
import { BackupRefusedError, newestBackupId, readVerifiedBackup, type BackupRefusal } from './read-backup.js';

const PREFIX = 'bed/team-a/zk/';
const ID = '20261129T030000.000Z';

function memoryStore(): ObjectStore & { objects: Map<string, Buffer> } {
  const objects = new Map<string, Buffer>();
  return {
    objects,
    location: (key) => `mem://${key}`,
    put: (key, body) => Promise.resolve(void objects.set(key, body)),
    get: (key) => Promise.resolve(objects.get(key)),
    list: (prefix) => Promise.resolve([...objects.keys()].filter((key) => key.startsWith(prefix)).sort()),
    delete: (keys) => Promise.resolve(keys.forEach((key) => objects.delete(key))),
    close: () => undefined,
  };
}

const records: ZnodeRecord[] = [
  { path: '/', data: '', acl: [{ perms: 31, scheme: 'world', id: 'anyone' }] },
  ...Array.from({ length: 5 }, (_, index) => ({ path: `/app${String(index)}`, data: Buffer.from(`v${String(index)}`).toString('base64'), acl: [{ perms: 31, scheme: 'sasl', id: 'app' }] })),
];

/** A backup of `records` in 3 objects (2 records each), stored under PREFIX. */
function storedBackup(id = ID): ReturnType<typeof memoryStore> {
  const store = memoryStore();
  const packed = packBackup(records, { id, workload: { namespace: 'team-a', name: 'zk', uid: 'u' }, zxid: 0x100000010n, startedAt: new Date(), finishedAt: new Date() }, { records: 2, bytes: OBJECT_LIMITS.bytes });
  for (const object of packed.objects) store.objects.set(`${PREFIX}${id}/${object.name}`, object.body);
  store.objects.set(`${PREFIX}${id}/${MANIFEST_OBJECT}`, Buffer.from(JSON.stringify(packed.manifest)));
  return store;
}

function editManifest(store: ReturnType<typeof memoryStore>, change: (manifest: Record<string, unknown>) => unknown): void {
  const key = `${PREFIX}${ID}/${MANIFEST_OBJECT}`;
  const manifest = JSON.parse(store.objects.get(key)?.toString('utf8') ?? '{}') as Record<string, unknown>;
  store.objects.set(key, Buffer.from(JSON.stringify(change(manifest))));
}

async function refusal(store: ObjectStore): Promise<{ reason: BackupRefusal; message: string }> {
  const error: unknown = await readVerifiedBackup(store, PREFIX, ID).then(() => undefined, (caught: unknown) => caught);
  if (!(error instanceof BackupRefusedError)) throw new Error(`expected a refusal, got ${String(error)}`);
  return { reason: error.reason, message: error.message };
}

const OBJECT_1 = `${PREFIX}${ID}/znodes-00001.jsonl.gz`;

describe('readVerifiedBackup', () => {
  it('reads a backup back whole: the manifest, and every record in path order', async () => {
    const backup = await readVerifiedBackup(storedBackup(), PREFIX, ID);
    expect(backup.manifest).toMatchObject({ format: BACKUP_FORMAT, id: ID, zxid: '0x100000010', znodes: 6 });
    expect(backup.records).toEqual(records);
  });

  it('refuses a backup without a manifest as not found', async () => {
    const store = storedBackup();
    store.objects.delete(`${PREFIX}${ID}/${MANIFEST_OBJECT}`);
    expect(await refusal(store)).toMatchObject({ reason: 'BackupNotFound' });
  });

  it('refuses a manifest of another format, naming it', async () => {
    const store = storedBackup();
    editManifest(store, (manifest) => ({ ...manifest, format: 'zk-oam.dev/backup/v2' }));
    expect(await refusal(store)).toEqual({ reason: 'BackupInvalid', message: `backup ${ID} has format "zk-oam.dev/backup/v2"; this controller reads ${BACKUP_FORMAT} only` });
  });

  it('refuses a manifest that is not JSON, not of the manifest\'s shape, of another id, or whose counts disagree', async () => {
    const notJson = storedBackup();
    notJson.objects.set(`${PREFIX}${ID}/${MANIFEST_OBJECT}`, Buffer.from('{"format": '));
    expect(await refusal(notJson)).toMatchObject({ reason: 'BackupInvalid' });
    for (const change of [
      (manifest: Record<string, unknown>) => ({ ...manifest, objects: 'none' }),
      (manifest: Record<string, unknown>) => ({ ...manifest, id: '20261129T040000.000Z' }),
      (manifest: Record<string, unknown>) => ({ ...manifest, znodes: 7 }),
    ]) {
      const store = storedBackup();
      editManifest(store, change);
      expect(await refusal(store)).toMatchObject({ reason: 'BackupInvalid' });
    }
  });

  it('refuses a backup an object of which is missing', async () => {
    const store = storedBackup();
    store.objects.delete(OBJECT_1);
    expect(await refusal(store)).toMatchObject({ reason: 'BackupObjectMissing', message: expect.stringContaining('znodes-00001.jsonl.gz') });
  });

  it('refuses an object with a flipped byte as corrupted, naming its checksum', async () => {
    const store = storedBackup();
    const body = Buffer.from(store.objects.get(OBJECT_1) ?? Buffer.alloc(0));
    body[body.length >> 1] = (body[body.length >> 1] ?? 0) ^ 0xff;
    store.objects.set(OBJECT_1, body);
    expect(await refusal(store)).toMatchObject({ reason: 'BackupCorrupted', message: expect.stringContaining('SHA-256') });
  });

  it('refuses a truncated object as corrupted, naming its size', async () => {
    const store = storedBackup();
    store.objects.set(OBJECT_1, (store.objects.get(OBJECT_1) ?? Buffer.alloc(0)).subarray(0, 10));
    expect(await refusal(store)).toMatchObject({ reason: 'BackupCorrupted', message: expect.stringContaining('has 10 bytes') });
  });

  it('refuses an object that matches its checksum but holds no znode records', async () => {
    const store = storedBackup();
    const body = gzipSync('{"path": "no slash"}\n');
    store.objects.set(OBJECT_1, body);
    editManifest(store, (manifest) => ({
      ...manifest,
      objects: (manifest['objects'] as { name: string }[]).map((entry) => (entry.name === 'znodes-00001.jsonl.gz' ? { ...entry, sizeBytes: body.length, sha256: sha256(body) } : entry)),
    }));
    expect(await refusal(store)).toMatchObject({ reason: 'BackupInvalid', message: 'record 1 of znodes-00001.jsonl.gz is not a znode record' });
  });

  it('checks every object before decoding any: a corrupted last object refuses the backup whatever comes before', async () => {
    const store = storedBackup();
    const last = `${PREFIX}${ID}/znodes-00002.jsonl.gz`;
    store.objects.set(last, Buffer.concat([store.objects.get(last) ?? Buffer.alloc(0), Buffer.from('x')]));
    expect(await refusal(store)).toMatchObject({ reason: 'BackupCorrupted' });
  });
});

describe('newestBackupId', () => {
  it('is the newest id with a manifest: a run that left objects and no manifest is no backup', async () => {
    const store = storedBackup('20261129T010000.000Z');
    for (const [key, body] of storedBackup('20261129T020000.000Z').objects) store.objects.set(key, body);
    store.objects.set(`${PREFIX}20261129T030000.000Z/znodes-00000.jsonl.gz`, Buffer.from('partial'));
    expect(await newestBackupId(store, PREFIX)).toBe('20261129T020000.000Z');
    expect(await newestBackupId(memoryStore(), PREFIX)).toBeUndefined();
  });
});
