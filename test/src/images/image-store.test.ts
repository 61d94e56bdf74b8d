import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ImageStore } from './image-store.js';

const HOUR_MS = 3_600_000;
const dirs: string[] = [];

async function storeWith(entries: Record<string, number>): Promise<ImageStore> {
  const cache = await mkdtemp(join(tmpdir(), 'image-store-'));
  dirs.push(cache);
  const store = new ImageStore(cache);
  for (const [path, ageMs] of Object.entries(entries)) {
    const dir = join(store.dir, path);
    await mkdir(join(dir, 'rootfs'), { recursive: true });
    const then = new Date(Date.now() - ageMs);
    await utimes(dir, then, then);
  }
  return store;
}

afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

describe('ImageStore.pruneUnused', () => {
  it('removes the pulled layouts and unpacked images unused for longer than the TTL, and nothing else', async () => {
    const store = await storeWith({ 'pulled/old': 25 * HOUR_MS, 'pulled/new': HOUR_MS, 'unpacked/old': 48 * HOUR_MS, 'unpacked/new': 0, 'oci/workload-1': 48 * HOUR_MS });
    const removed = await store.pruneUnused(24 * HOUR_MS);
    expect(removed.map((path) => path.slice(store.dir.length + 1)).sort()).toEqual(['pulled/old', 'unpacked/old']);
    expect(existsSync(join(store.dir, 'pulled/new'))).toBe(true);
    expect(existsSync(join(store.dir, 'unpacked/new'))).toBe(true);
    expect(existsSync(join(store.dir, 'oci/workload-1'))).toBe(true);
  });

  it('keeps an old entry once it is marked used again', async () => {
    const store = await storeWith({ 'unpacked/reused': 30 * HOUR_MS });
    await store.markUsed(join(store.dir, 'unpacked/reused'));
    expect(await store.pruneUnused(24 * HOUR_MS)).toEqual([]);
  });

  it('prunes nothing in a store that has pulled and unpacked nothing yet', async () => {
    const store = await storeWith({});
    expect(await store.pruneUnused(0)).toEqual([]);
  });
});
