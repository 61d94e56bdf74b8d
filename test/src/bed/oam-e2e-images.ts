// Fakes, named as such: the images the specs of oam-kubernetes-runtime's e2e suite put in their workloads (WordPress)
// cannot run on the bed, and the specs need only a container that starts and stays up (a Deployment with ready
// replicas). The bed's registry has one idle stand-in image (test/images/stand-in/) under each of their references.
import { join } from 'node:path';
import { buildCached, localBase, type BuildImagesOptions } from '../images/build-images.js';
import { contextDigest, imageKey } from '../images/image-key.js';
import type { LocalImage } from './bed-images.js';

const E2E_SUITE_IMAGES = ['wordpress:4.6.1-apache', 'wordpress:php7.2'] as const;
const NAME = 'oam-e2e-stand-in';

/** The stand-in, built (or found in the cache) on the bed's run base, published under each of the suite's references. */
export async function oamE2eImageStandIn(options: Pick<BuildImagesOptions, 'repo' | 'store' | 'progress'>): Promise<LocalImage> {
  const base = await localBase(options.repo, options.store, 'run');
  const context = join(options.repo, 'test', 'images', 'stand-in');
  const key = imageKey({ context: await contextDigest(context, 'Containerfile'), name: NAME, inputs: [base] });
  const build = { name: NAME, reference: `localhost/zk-oam/${NAME}:${key}`, key, context, options: ['--build-arg', `RUN_BASE=${base}`] };
  const image = await buildCached(options.store, build, options.progress);
  return { layout: image.layout, tag: image.name, references: E2E_SUITE_IMAGES };
}
