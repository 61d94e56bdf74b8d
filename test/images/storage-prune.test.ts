// The builds' layer cache is bounded: in a storage of its own, with real buildah, an image made (by its recorded time)
// two days ago is removed by pruneStorage and one made now is kept.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImageStore, LAYER_CACHE_TTL_MS } from '../src/images/image-store.js';

let cacheDir = '';
let store: ImageStore;

/** Commits an empty image tagged `name`, recorded as made at `created` (seconds since the epoch). */
async function commitImage(name: string, created: number): Promise<void> {
  const container = (await store.buildah(['from', '--quiet', 'scratch'])).trim();
  try {
    await store.buildah(['config', '--label', `made=${name}`, container]);
    await store.buildah(['commit', '--quiet', '--timestamp', String(created), container, `localhost/prune-test/${name}:1`]);
  } finally {
    await store.buildah(['rm', container]);
  }
}

async function names(): Promise<string[]> {
  return (await store.buildah(['images', '--format', '{{.Name}}'])).split('\n').filter((line) => line !== '');
}

beforeAll(async () => {
  cacheDir = await mkdtemp(join(tmpdir(), 'zk-oam-prune-'));
  store = new ImageStore(cacheDir);
  const now = Math.floor(Date.now() / 1000);
  await commitImage('old', now - 2 * 24 * 3_600);
  await commitImage('new', now);
});

afterAll(async () => {
  await store.buildah(['rmi', '--all', '--force']).catch(() => undefined);
  await rm(cacheDir, { recursive: true, force: true });
});

describe("buildah's storage, pruned", () => {
  it('removes the images made more than a day ago and keeps the newer', async () => {
    expect(await names()).toEqual(expect.arrayContaining(['localhost/prune-test/old', 'localhost/prune-test/new']));

    expect(await store.pruneStorage(LAYER_CACHE_TTL_MS)).toBe(1);

    expect(await names()).toEqual(['localhost/prune-test/new']);
    expect(await store.pruneStorage(LAYER_CACHE_TTL_MS)).toBe(0);
  });
});
