// Images unpacked for containers: umoci unpacks an image's OCI layout once per manifest digest into the image store
// (so two beds and later runs share it), and every container of the image uses that root read-only, under an overlay
// of its own (container-run.ts). Never written after the unpack.
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { commandOutput } from '../images/command.js';
import type { ImageStore } from '../images/image-store.js';
import { imageConfig, type ImageConfig } from '../images/oci-layout.js';
import { runtimeSpecSchema, type RuntimeSpec } from './runtime-spec.js';

/** An unpacked image: its root filesystem, the runtime spec umoci made from its configuration, and that configuration. */
export interface ImageBundle {
  readonly rootfs: string;
  readonly spec: RuntimeSpec;
  readonly config: ImageConfig;
}

export class ImageBundles {
  /** One unpack at a time per digest in this process; across processes the rename below decides. */
  private readonly unpacking = new Map<string, Promise<void>>();

  constructor(private readonly store: ImageStore) {}

  /** The image tagged `tag` in the OCI layout, unpacked now if no one has yet. */
  async get(layout: string, tag: string): Promise<ImageBundle> {
    const config = await imageConfig(layout, tag);
    const dir = this.store.unpacked(config.digest);
    if (!existsSync(join(dir, 'config.json'))) {
      let unpack = this.unpacking.get(dir);
      if (unpack === undefined) {
        unpack = unpackInto(`${layout}:${tag}`, dir).finally(() => this.unpacking.delete(dir));
        this.unpacking.set(dir, unpack);
      }
      await unpack;
    }
    await Promise.all([this.store.markUsed(layout), this.store.markUsed(dir)]);
    const spec = runtimeSpecSchema.parse(JSON.parse(await readFile(join(dir, 'config.json'), 'utf8')));
    return { rootfs: join(dir, 'rootfs'), spec, config };
  }
}

/** Unpacks beside `dir` and renames into place: a concurrent unpack (another bed) never sees half a root. */
async function unpackInto(image: string, dir: string): Promise<void> {
  await mkdir(dirname(dir), { recursive: true });
  const partial = `${dir}.partial-${randomUUID().slice(0, 8)}`;
  try {
    await commandOutput('umoci', ['unpack', '--image', image, partial]);
    await rename(partial, dir).catch((error: unknown) => {
      // Another process renamed its unpack of the same digest first: the same content, already in place.
      if (!(error instanceof Error && 'code' in error && (error.code === 'ENOTEMPTY' || error.code === 'EEXIST'))) throw error;
    });
  } finally {
    await rm(partial, { recursive: true, force: true });
  }
}
