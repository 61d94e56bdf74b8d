// The S3 target against a real S3-compatible server: VersityGW built from its Go module, started on loopback. The
// backup controller's store puts, gets, lists (across pages) and deletes objects; a missing object is undefined, a
// wrong secret key and a missing bucket are refused with the server's code.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ObjectStoreError, s3Store, type ObjectStore, type S3StoreOptions } from '@zk-oam/backup';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3Server, type S3Server } from '../src/s3/s3-server.js';

describe('the S3 store on a real S3 server (VersityGW)', () => {
  let dir: string;
  let server: S3Server;
  let store: ObjectStore;
  const opened: ObjectStore[] = [];

  const storeWith = (overrides: Partial<S3StoreOptions>): ObjectStore => {
    const created = s3Store({
      endpoint: server.endpoint,
      region: server.region,
      bucket: 'backups',
      forcePathStyle: true,
      accessKeyId: server.accessKeyId,
      secretAccessKey: server.secretAccessKey,
      ca: undefined,
      requestTimeoutMs: 10_000,
      ...overrides,
    });
    opened.push(created);
    return created;
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'zkoam-s3-'));
    server = await startS3Server({ dir, buckets: ['backups'] });
    store = storeWith({});
  });

  afterAll(async () => {
    for (const each of opened) each.close();
    await server?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('puts, gets, lists and deletes objects', async () => {
    const body = Buffer.from('{"znodes":1}\n');
    await store.put('ns/zk/20261129T030000Z/manifest.json', body, 'application/json');
    await store.put('ns/zk/20261129T030000Z/znodes-00000.jsonl.gz', Buffer.alloc(70_000, 7), 'application/gzip');
    expect(await store.get('ns/zk/20261129T030000Z/manifest.json')).toEqual(body);
    expect(await store.list('ns/zk/')).toEqual(['ns/zk/20261129T030000Z/manifest.json', 'ns/zk/20261129T030000Z/znodes-00000.jsonl.gz']);
    await store.delete(['ns/zk/20261129T030000Z/manifest.json', 'ns/zk/20261129T030000Z/never-there']);
    expect(await store.get('ns/zk/20261129T030000Z/manifest.json')).toBeUndefined();
    expect(await store.list('ns/zk/')).toEqual(['ns/zk/20261129T030000Z/znodes-00000.jsonl.gz']);
    expect(store.location('ns/zk/20261129T030000Z/')).toBe('s3://backups/ns/zk/20261129T030000Z/');
  });

  it('lists more keys than one page holds', async () => {
    const keys = Array.from({ length: 1_005 }, (_, index) => `paged/${String(index).padStart(4, '0')}`);
    for (let start = 0; start < keys.length; start += 50) {
      await Promise.all(keys.slice(start, start + 50).map((key) => store.put(key, Buffer.from(key), 'text/plain')));
    }
    expect(await store.list('paged/')).toEqual(keys);
  });

  it('refuses a wrong secret key and a missing bucket with the server\'s code', async () => {
    await expect(storeWith({ secretAccessKey: 'wrong' }).put('x', Buffer.from('x'), 'text/plain')).rejects.toThrow(ObjectStoreError);
    await expect(storeWith({ secretAccessKey: 'wrong' }).list('')).rejects.toThrow(/SignatureDoesNotMatch|AccessDenied|InvalidAccessKeyId/);
    await expect(storeWith({ bucket: 'no-such-bucket' }).list('')).rejects.toThrow(/NoSuchBucket/);
  });
});
