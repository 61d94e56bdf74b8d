// The images a bed node has, and the pulls that bring them: every image comes from the bed's registry, through which
// the node reaches every upstream registry (a mirror, as a containerd node is configured with one per upstream host:
// image-reference.ts). `imagePullPolicy` is the kubelet's: IfNotPresent uses what this node pulled before, Always asks
// the registry for the tag's digest each time, Never uses only what is present. A pulled image is kept in the image
// store by its manifest digest, so that a pull whose layers another node (or an earlier run) already fetched sends
// none again, as containerd's content store skips the blobs it has.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';
import type { ImageBundle, ImageBundles } from '../containers/image-bundles.js';
import { mirroredReference, parseImageReference } from '../images/image-reference.js';
import type { ImageStore } from '../images/image-store.js';
import { imageConfig } from '../images/oci-layout.js';
import { manifestDigest, pullImage } from '../images/registry-copy.js';

/** A class-data sharing archive the bed made for an image's JVMs (jvm-archive.ts), by the image's manifest digest. */
export const jvmArchivesSchema = z.record(z.string().regex(/^sha256:[0-9a-f]{64}$/), z.string().min(1));
export type JvmArchives = z.infer<typeof jvmArchivesSchema>;

export type PullPolicy = 'Always' | 'IfNotPresent' | 'Never';

/** `Never` and the image is not on the node: the kubelet's ErrImageNeverPull. */
export class ImageNotPresentError extends Error {
  constructor(readonly reference: string) {
    super(`Container image "${reference}" is not present with pull policy of Never`);
    this.name = 'ImageNotPresentError';
  }
}

/** The registry refused or failed the pull: the kubelet's ErrImagePull, then ImagePullBackOff while it waits. */
export class ImagePullError extends Error {
  constructor(
    readonly reference: string,
    cause: unknown,
  ) {
    super(`failed to pull image "${reference}": ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'ImagePullError';
  }
}

export interface NodeImage {
  readonly bundle: ImageBundle;
  /** `<repository>@<manifest digest>`, as a kubelet reports the image a container runs. */
  readonly imageID: string;
  readonly jvmArchive: string | undefined;
}

/** The kubelet's default when a container names none: Always for `:latest` or no tag, else IfNotPresent. */
export function pullPolicyOf(reference: string, policy: string | undefined): PullPolicy {
  if (policy === 'Always' || policy === 'IfNotPresent' || policy === 'Never') return policy;
  return parseImageReference(reference).selector === ':latest' ? 'Always' : 'IfNotPresent';
}

export class NodeImages {
  /** What this node has pulled: reference → manifest digest. */
  private readonly present = new Map<string, string>();

  constructor(
    private readonly mirror: string,
    private readonly store: ImageStore,
    private readonly bundles: ImageBundles,
    private readonly jvmArchives: JvmArchives,
  ) {}

  /** The image `reference` names, pulled as `policy` says and unpacked for containers. */
  async image(reference: string, policy: PullPolicy): Promise<NodeImage> {
    const digest = await this.digestToRun(reference, policy);
    const bundle = await this.bundles.get(this.store.pulled(digest), 'image');
    return { bundle, imageID: `${repositoryOf(reference)}@${digest}`, jvmArchive: this.jvmArchives[digest] };
  }

  private async digestToRun(reference: string, policy: PullPolicy): Promise<string> {
    const present = this.present.get(reference);
    if (present !== undefined && policy !== 'Always') return present;
    if (policy === 'Never') throw new ImageNotPresentError(reference);
    const digest = await this.pull(reference);
    this.present.set(reference, digest);
    return digest;
  }

  private async pull(reference: string): Promise<string> {
    const source = mirroredReference(reference, this.mirror);
    try {
      const digest = await manifestDigest(source);
      if (!existsSync(this.store.pulled(digest))) await this.fetch(`${this.mirror}/${parseImageReference(reference).path}@${digest}`, digest);
      return digest;
    } catch (error) {
      throw new ImagePullError(reference, error);
    }
  }

  /** Pulls into a directory of its own and renames it into place: a concurrent pull never sees half a layout. */
  private async fetch(source: string, digest: string): Promise<void> {
    const layout = this.store.pulled(digest);
    await mkdir(dirname(layout), { recursive: true });
    const partial = await mkdtemp(`${layout}.partial-`);
    try {
      await pullImage(source, partial, 'image');
      const pulled = await imageConfig(partial, 'image');
      if (pulled.digest !== digest) throw new Error(`the registry served ${pulled.digest} for ${digest}`);
      await rename(partial, layout).catch((error: unknown) => {
        // Another pull of the same digest was first: the same content, already in place.
        if (!(error instanceof Error && 'code' in error && (error.code === 'ENOTEMPTY' || error.code === 'EEXIST'))) throw error;
      });
    } finally {
      await rm(partial, { recursive: true, force: true });
    }
  }
}

function repositoryOf(reference: string): string {
  return reference.includes('@') ? reference.slice(0, reference.indexOf('@')) : reference.replace(/:[^/:]+$/, '');
}
