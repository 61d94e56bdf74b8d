// The images a bed's nodes have (preloaded: test/src/agent/node-images.ts): the five of ours from the Dockerfile under
// the references deploy/ names, the bed's ZooKeeper image under the reference the bed's workloads name, and stand-ins
// for images that cannot be had here. Built, or found in the image store's cache, once before the beds start.
import { imageSchema } from '@zk-oam/apis';
import type { Logger } from 'pino';
import { ImageBundles } from '../containers/image-bundles.js';
import { imageCdsArchive } from '../zookeeper-jvm/image-cds-archive.js';
import { bedCacheDir } from '../zookeeper-jvm/jvm-options.js';
import type { PreloadedImage } from '../agent/node-images.js';
import { buildImages, type BuildImagesOptions } from '../images/build-images.js';
import { BED_ZOOKEEPER_IMAGE, buildZookeeperImages } from '../images/zookeeper-images.js';
import { oamE2eImageStandIns } from './oam-e2e-images.js';

/** The image a workload that names none runs: the official image, which cannot be pulled here. */
function defaultZookeeperReference(): string {
  const { repository, tag } = imageSchema.parse({});
  return `${repository}:${tag}`;
}

export async function bedImages(options: BuildImagesOptions, log: Logger): Promise<PreloadedImage[]> {
  const ours = await buildImages(options);
  const zookeeper = (await buildZookeeperImages(options)).find((image) => image.name === 'zookeeper-debian');
  if (zookeeper === undefined) throw new Error('the bed’s Debian ZooKeeper image was not built');
  // Its pods' JVMs start with the bed's options for short-lived JVMs, with an archive made in the image.
  const image = await new ImageBundles(options.store).get(zookeeper.layout, zookeeper.name);
  const jvmArchive = await imageCdsArchive({ cacheDir: bedCacheDir(process.env), image, log });
  const bedZookeeper = { layout: zookeeper.layout, tag: zookeeper.name, ...(jvmArchive === undefined ? {} : { jvmArchive }) };
  return [
    ...ours.map((image) => ({ reference: image.reference, layout: image.layout, tag: image.name })),
    { reference: `${BED_ZOOKEEPER_IMAGE.repository}:${BED_ZOOKEEPER_IMAGE.tag}`, ...bedZookeeper },
    // A stand-in, named as such: workloads that name no image (deploy/samples, the OAM and KubeVela specs) run the bed's
    // image, as they ran Debian's ZooKeeper before pods were containers.
    { reference: defaultZookeeperReference(), ...bedZookeeper },
    ...(await oamE2eImageStandIns(options)),
  ];
}
