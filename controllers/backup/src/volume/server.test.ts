import { mkdtemp, readdir, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@zk-oam/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DirectoryStore } from '../store/directory.js';
import { volumeStore } from '../store/volume.js';
import { newVolumeToken, tokenDigest } from './protocol.js';
import { volumeServer } from './server.js';

describe('the volume server and its client: a directory as an object store over HTTP', () => {
  const token = newVolumeToken();
  let dir: string;
  let url: string;
  let close: () => Promise<void>;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'zkoam-volume-'));
    const server = volumeServer(new DirectoryStore(dir, 'pvc://claim/'), tokenDigest(token), createLogger({ name: 'volume-test', level: 'silent' }));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
    close = () => new Promise((resolve) => server.close(() => resolve()));
  });

  afterAll(async () => {
    await close();
    await rm(dir, { recursive: true, force: true });
  });

  it('puts, gets, lists and deletes objects as files, removing a backup’s emptied directories', async () => {
    const store = volumeStore({ url, token, location: 'pvc://claim/', requestTimeoutMs: 5_000 });
    await store.put('p/ns/zk/20261129T030000.000Z/znodes-00000.jsonl.gz', Buffer.from('records'), 'application/gzip');
    await store.put('p/ns/zk/20261129T030000.000Z/manifest.json', Buffer.from('{}'), 'application/json');
    await store.put('p/ns/zk/20261129T040000.000Z/manifest.json', Buffer.from('{}'), 'application/json');
    expect(await store.list('p/ns/zk/')).toEqual([
      'p/ns/zk/20261129T030000.000Z/manifest.json',
      'p/ns/zk/20261129T030000.000Z/znodes-00000.jsonl.gz',
      'p/ns/zk/20261129T040000.000Z/manifest.json',
    ]);
    expect((await store.get('p/ns/zk/20261129T030000.000Z/znodes-00000.jsonl.gz'))?.toString()).toBe('records');
    expect(await store.get('p/ns/zk/missing')).toBeUndefined();
    await store.delete(['p/ns/zk/20261129T030000.000Z/manifest.json', 'p/ns/zk/20261129T030000.000Z/znodes-00000.jsonl.gz']);
    expect(await readdir(join(dir, 'p/ns/zk'))).toEqual(['20261129T040000.000Z']);
    expect(store.location('p/ns/zk/x/')).toBe('pvc://claim/p/ns/zk/x/');
  });

  it('refuses a caller without the token, and a key that leaves the directory', async () => {
    const stranger = volumeStore({ url, token: newVolumeToken(), location: 'pvc://claim/', requestTimeoutMs: 5_000 });
    await expect(stranger.put('a/b', Buffer.from('x'), 'text/plain')).rejects.toThrow('HTTP 401');
    const store = volumeStore({ url, token, location: 'pvc://claim/', requestTimeoutMs: 5_000 });
    await expect(store.put('../outside', Buffer.from('x'), 'text/plain')).rejects.toThrow('HTTP 500');
    await expect(store.put('a/../../outside', Buffer.from('x'), 'text/plain')).rejects.toThrow('not a key');
  });
});
