// The bed's CoreDNS image, in place of the one its cluster DNS names (registry.k8s.io/coredns/coredns, which cannot be
// pulled here): the static CoreDNS test/network/build.sh builds, alone in an image made from scratch, run as the user
// upstream's image runs as. Saved in the image store keyed by the binary's digest, as the other images are keyed by
// what goes into them: the same binary, no build.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { saveCached, type BuildImagesOptions, type BuiltImage, type CachedImage } from '../images/build-images.js';
import { imageKey } from '../images/image-key.js';
import { resolveNetworkBinaries } from './binaries.js';

export const COREDNS_IMAGE_NAME = 'coredns';

/** The reference the cluster DNS's pods name, tagged with the version test/network/go.mod pins. */
export const COREDNS_IMAGE_REFERENCE = 'registry.k8s.io/coredns/coredns:v1.13.1';

/** The image's configuration: the binary is the entrypoint, run as upstream's base image's nonroot user. */
export const COREDNS_IMAGE_CONFIG = { entrypoint: ['/coredns'], user: '65532:65532' } as const;

/**
 * Builds the image from `coredns` (by default the binary build.sh built), or finds it saved. The layout's one tag is
 * the image's name; the bed publishes it under COREDNS_IMAGE_REFERENCE.
 */
export async function buildCorednsImage(
  options: Pick<BuildImagesOptions, 'store' | 'progress'>,
  coredns?: string,
): Promise<BuiltImage<typeof COREDNS_IMAGE_NAME>> {
  const { store } = options;
  const binary = coredns ?? (await resolveNetworkBinaries()).coredns;
  const digest = createHash('sha256').update(await readFile(binary)).digest('hex');
  const name = COREDNS_IMAGE_NAME;
  const key = imageKey({ context: digest, name, inputs: [JSON.stringify(COREDNS_IMAGE_CONFIG)] });
  const image: CachedImage<typeof name> = { name, reference: `localhost/zk-oam/${name}:${key}`, key };
  const make = async (): Promise<void> => {
    const container = (await store.buildah(['from', '--quiet', 'scratch'])).trim();
    try {
      await store.buildah(['copy', '--quiet', '--chmod', '0755', container, binary, '/coredns']);
      const { entrypoint, user } = COREDNS_IMAGE_CONFIG;
      await store.buildah(['config', '--entrypoint', JSON.stringify(entrypoint), '--user', user, container]);
      await store.buildah(['commit', '--quiet', container, image.reference]);
    } finally {
      await store.buildah(['rm', container]);
    }
  };
  return saveCached(store, image, make, options.progress);
}
