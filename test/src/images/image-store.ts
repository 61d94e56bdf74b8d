// Where the images live: buildah's storage, the local bases, each built image as an OCI layout and each image unpacked
// for containers, all under <cache>/images/. overlay, not vfs: vfs copies the whole root filesystem for every layer,
// several GB for five images.
import { readdir, rm, stat, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { commandOutput } from './command.js';

/** What `buildah images --json` says of each image, as far as pruning reads it (created: seconds since the epoch). */
const storedImagesSchema = z.array(z.object({ id: z.string(), created: z.number() }));

/**
 * How long a pulled layout or an unpacked image stays unused (markUsed) before pruneUnused removes it: each image built
 * is pulled and unpacked again, about 300 MB a build, and a day of runs filled the disk.
 */
export const UNUSED_IMAGE_TTL_MS = 24 * 3_600_000;

/** When a cache entry was last used (its directory's time), or undefined when it is gone (another process removed it). */
export async function lastUsed(path: string): Promise<number | undefined> {
  return stat(path).then(
    (stats) => stats.mtimeMs,
    () => undefined,
  );
}

/**
 * How long an image stays in buildah's storage (pruneStorage): a source change adds about 120 MB of layers there (its
 * bundles, its run stage), and a day of work by several agents made 1,500 images, 45 GB. What a run needs is kept as
 * an OCI layout; the cost is an npm ci layer made again (about a minute) when a build comes 6 hours after it was made.
 */
export const LAYER_CACHE_TTL_MS = 6 * 3_600_000;

export class ImageStore {
  readonly dir: string;

  /**
   * `layouts`: the directory under dir/ the built images' layouts go in. Another tree's images of the same names (an
   * earlier release's) get one of their own: a few layouts per name are kept in each, so neither evicts the other's.
   */
  constructor(
    private readonly cacheDir: string,
    private readonly layouts = 'oci',
  ) {
    this.dir = join(cacheDir, 'images');
  }

  /** This store (the same storage and bases), with built images' layouts under dir/<layouts>. */
  withLayouts(layouts: string): ImageStore {
    return new ImageStore(this.cacheDir, layouts);
  }

  /** buildah's storage (images and layers), which base.sh is given too. */
  get storage(): string {
    return join(this.dir, 'storage');
  }

  /** The OCI layout an image of ours is saved as, one per name and key; its one tag is the name. */
  layout(name: string, key: string): string {
    return join(this.dir, this.layouts, `${name}-${key}`);
  }

  /** The OCI layout a node's pull of an image is kept in, one per manifest digest (so a second pull sends no layer). */
  pulled(digest: string): string {
    return join(this.dir, 'pulled', digest.replace(/^sha256:/, ''));
  }

  /** Where an image is unpacked for containers (an OCI bundle: rootfs/ and umoci's config.json), one per manifest digest. */
  unpacked(digest: string): string {
    return join(this.dir, 'unpacked', digest.replace(/^sha256:/, ''));
  }

  /** Records that a pulled layout or an unpacked image is used now (a container starts on it): pruneUnused keeps it. */
  async markUsed(path: string): Promise<void> {
    const now = new Date();
    await utimes(path, now, now).catch(() => undefined);
  }

  /** Removes the pulled layouts and unpacked images not used for `ttlMs` (their directories' times); returns their paths. */
  async pruneUnused(ttlMs: number): Promise<string[]> {
    const before = Date.now() - ttlMs;
    const removed: string[] = [];
    for (const kind of ['pulled', 'unpacked']) {
      const dir = join(this.dir, kind);
      for (const entry of await readdir(dir).catch(() => [])) {
        const path = join(dir, entry);
        // Gone meanwhile (another run pruned it): nothing to do.
        const used = await lastUsed(path);
        if (used === undefined || used >= before) continue;
        await rm(path, { recursive: true, force: true });
        removed.push(path);
      }
    }
    return removed;
  }

  /**
   * Removes from buildah's storage the images made more than `ttlMs` ago; returns how many went. Whatever a run needs
   * is kept as an OCI layout (ours, the bases, which base.sh takes back from theirs), so the storage is only the builds'
   * layer cache (LAYER_CACHE_TTL_MS says why it is bounded). An image in use by a build under way is not removed.
   */
  async pruneStorage(ttlMs: number): Promise<number> {
    const before = (Date.now() - ttlMs) / 1000;
    const old = (await this.storedImages()).filter((image) => image.created < before).map((image) => image.id);
    if (old.length === 0) return 0;
    // One call for all: buildah removes what it can and reports the others (in use, or a parent of a newer image).
    await this.buildah(['rmi', ...old]).catch(() => undefined);
    const left = new Set((await this.storedImages()).map((image) => image.id));
    return old.filter((id) => !left.has(id)).length;
  }

  private async storedImages(): Promise<z.infer<typeof storedImagesSchema>> {
    return storedImagesSchema.parse(JSON.parse((await this.buildah(['images', '--all', '--json'])).trim() || '[]'));
  }

  /** Runs buildah on this storage, without a daemon. */
  buildah(args: readonly string[], options: { cwd?: string } = {}): Promise<string> {
    return commandOutput('buildah', ['--root', join(this.storage, 'root'), '--runroot', join(this.storage, 'run'), '--storage-driver', 'overlay', ...args], options);
  }
}
