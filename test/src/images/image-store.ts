// Where the images live: buildah's storage, the local bases, each built image as an OCI layout and each image unpacked
// for containers, all under <cache>/images/. overlay, not vfs: vfs copies the whole root filesystem for every layer,
// several GB for five images.
import { join } from 'node:path';
import { commandOutput } from './command.js';

export class ImageStore {
  readonly dir: string;

  /**
   * `layouts`: the directory under dir/ the built images' layouts go in. Another tree's images of the same names (an
   * earlier release's) get one of their own: one layout per name is kept in each, so neither evicts the other's.
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

  /** Runs buildah on this storage, without a daemon. */
  buildah(args: readonly string[], options: { cwd?: string } = {}): Promise<string> {
    return commandOutput('buildah', ['--root', join(this.storage, 'root'), '--runroot', join(this.storage, 'run'), '--storage-driver', 'overlay', ...args], options);
  }
}
