// The images a bed node has, preloaded as `kind load` preloads a node: each reference a pod may name, with the OCI
// layout (and its tag) in the bed's image store that holds it, unpacked on first use. A reference not in the list
// cannot be run (the kubelet's ErrImageNeverPull: the node has no such image and pulls none).
import { z } from 'zod';
import type { ImageBundle, ImageBundles } from '../containers/image-bundles.js';

export const preloadedImagesSchema = z.array(
  z.object({
    reference: z.string().min(1),
    layout: z.string().min(1),
    tag: z.string().min(1),
    /** A class-data sharing archive the bed made for the image's JVMs (jvm-archive.ts). */
    jvmArchive: z.string().min(1).optional(),
  }),
);
export type PreloadedImage = z.infer<typeof preloadedImagesSchema>[number];

export class ImageNotPresentError extends Error {
  constructor(readonly reference: string) {
    super(`image ${reference} is not present on the node, and the bed's nodes pull no image`);
    this.name = 'ImageNotPresentError';
  }
}

export class NodeImages {
  private readonly byReference: ReadonlyMap<string, PreloadedImage>;

  constructor(
    preloaded: readonly PreloadedImage[],
    private readonly bundles: ImageBundles,
  ) {
    this.byReference = new Map(preloaded.map((image) => [image.reference, image]));
  }

  /** The image `reference` names, unpacked for containers, with the JVM archive the bed made for it. */
  async image(reference: string): Promise<{ bundle: ImageBundle; jvmArchive: string | undefined }> {
    const image = this.byReference.get(reference);
    if (image === undefined) throw new ImageNotPresentError(reference);
    return { bundle: await this.bundles.get(image.layout, image.tag), jvmArchive: image.jvmArchive };
  }
}
