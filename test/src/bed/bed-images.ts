// The images a bed's nodes run, published to the bed's registry (test/src/bed/registry.ts), from which the nodes pull
// every image (test/src/agent/node-images.ts): the eight of ours (or those an install runs) from the Dockerfile under
// the references deploy/ names, the bed's ZooKeeper image under the reference the bed's workloads name, CoreDNS for
// cluster DNS, and stand-ins for images that cannot be had here. Built, or found in the image store's cache, once before
// the beds start; pushed under the path each reference has on the registry that mirrors every upstream host.
import { imageSchema } from '@zk-oam/apis';
import type { Logger } from 'pino';
import { ImageBundles } from '../containers/image-bundles.js';
import { imageCdsArchive } from '../zookeeper-jvm/image-cds-archive.js';
import { bedCacheDir } from '../cache-dir.js';
import type { NodeImageSource } from '../agent/agent.js';
import type { JvmArchives } from '../agent/node-images.js';
import { buildImages, type BuildImagesOptions, type BuiltImage } from '../images/build-images.js';
import { LAYER_CACHE_TTL_MS, UNUSED_IMAGE_TTL_MS } from '../images/image-store.js';
import { IMAGE_NAMES, type ImageName } from './controller-images.js';
import { DEFAULT_INSTALL, installedImages } from '../controllers/install.js';
import { mirroredReference } from '../images/image-reference.js';
import { pushImage } from '../images/registry-copy.js';
import { BED_ZOOKEEPER_IMAGE, buildZookeeperImages } from '../images/zookeeper-images.js';
import { oamE2eImageStandIn } from './oam-e2e-images.js';
import { buildCorednsImage, COREDNS_IMAGE_REFERENCE } from '../network/coredns-image.js';

/** An image in the image store (the OCI layout and its tag) and every reference pods name it by. */
export interface LocalImage {
  readonly layout: string;
  readonly tag: string;
  readonly references: readonly string[];
}

export interface BedImages {
  readonly local: readonly LocalImage[];
  /** The class-data sharing archives made for the bed's ZooKeeper image, by its manifest digest. */
  readonly jvmArchives: JvmArchives;
}

/** One of our images, as the bed serves it: under the reference deploy/ names. */
function localImageOf(built: BuiltImage): LocalImage {
  return { layout: built.layout, tag: built.name, references: [built.reference] };
}

/** The image a workload that names none runs: the official image, which cannot be pulled here. */
function defaultZookeeperReference(): string {
  const { repository, tag } = imageSchema.parse({});
  return `${repository}:${tag}`;
}

/** The bed's Debian ZooKeeper image, and the class-data sharing archive its pods' JVMs start with. */
async function bedZookeeperImage(options: BuildImagesOptions, log: Logger) {
  const [zookeeper] = await buildZookeeperImages(options, ['zookeeper-debian']);
  if (zookeeper === undefined) throw new Error('the bed’s Debian ZooKeeper image was not built');
  // Its pods' JVMs start with the bed's options for short-lived JVMs, with an archive made in the image.
  const image = await new ImageBundles(options.store).get(zookeeper.layout, zookeeper.name);
  const jvmArchive = await imageCdsArchive({ cacheDir: bedCacheDir(process.env), image, log });
  return { zookeeper, image, jvmArchive };
}

/**
 * Ours, those the default install runs unpacked as a node unpacks what it pulls (keyed by the image's digest, so the
 * nodes find them): `npm start`'s first pods then take no unpack (about 5 s apiece), which came after the bootstrap.
 */
async function ourImages(options: BuildImagesOptions): Promise<BuiltImage[]> {
  const ours = await buildImages(options);
  const bundles = new ImageBundles(options.store);
  const installed = installedImages(DEFAULT_INSTALL);
  for (const built of ours) if (installed.includes(built.name)) await bundles.get(built.layout, built.name);
  return ours;
}

export async function bedImages(options: BuildImagesOptions, log: Logger): Promise<BedImages> {
  const pruned = await options.store.pruneUnused(UNUSED_IMAGE_TTL_MS);
  if (pruned.length > 0) log.info({ step: 'prune', removed: pruned.length }, `removed ${String(pruned.length)} pulled or unpacked images unused for a day`);
  const layerCache = await options.store.pruneStorage(LAYER_CACHE_TTL_MS);
  if (layerCache > 0) log.info({ step: 'prune', removed: layerCache }, `removed ${String(layerCache)} images older than ${String(LAYER_CACHE_TTL_MS / 3_600_000)} hours from buildah's storage (the builds' layer cache)`);
  // Side by side: the ZooKeeper image's base is mostly waiting on Debian's packages while ours bundle.
  const [ours, { zookeeper, image, jvmArchive }] = await Promise.all([ourImages(options), bedZookeeperImage(options, log)]);
  const local: LocalImage[] = [
    ...ours.map(localImageOf),
    {
      layout: zookeeper.layout,
      tag: zookeeper.name,
      // The default image's reference too, a stand-in named as such: workloads that name no image (deploy/samples, the
      // OAM and KubeVela specs) run the bed's image, as they ran Debian's ZooKeeper before pods were containers.
      references: [`${BED_ZOOKEEPER_IMAGE.repository}:${BED_ZOOKEEPER_IMAGE.tag}`, defaultZookeeperReference()],
    },
    await oamE2eImageStandIn(options),
    // The cluster DNS's, upstream's reference for an image of the CoreDNS built here (test/network/build.sh).
    await buildCorednsImage(options).then((built) => ({ layout: built.layout, tag: built.name, references: [COREDNS_IMAGE_REFERENCE] })),
  ];
  return { local, jvmArchives: jvmArchive === undefined ? {} : { [image.config.digest]: jvmArchive } };
}

/** Our images the default install does not run (the separate install's), for `npm start` to publish once it shows the system working. */
export function otherInstallImages(): ImageName[] {
  const installed = installedImages(DEFAULT_INSTALL);
  return IMAGE_NAMES.filter((name) => !installed.includes(name));
}

/** Builds (or finds cached) our images of `names` and pushes them to `registry`, where a running bed's nodes pull from. */
export async function publishOurImages(options: BuildImagesOptions, registry: string, log: Logger): Promise<void> {
  const built = await buildImages(options);
  await publishBedImages({ local: built.map(localImageOf), jvmArchives: {} }, registry, log);
}

/** Pushes every image under each of its references to `registry` (blobs already there are not sent again). */
export async function publishBedImages(images: BedImages, registry: string, log: Logger): Promise<NodeImageSource> {
  const started = performance.now();
  for (const image of images.local) {
    for (const reference of image.references) {
      await pushImage(image.layout, image.tag, mirroredReference(reference, registry));
    }
  }
  const pushed = images.local.flatMap((image) => image.references);
  log.info({ step: 'publish', registry, images: pushed, seconds: Number(((performance.now() - started) / 1000).toFixed(1)) }, 'the bed’s images are in its registry');
  return { mirror: registry, jvmArchives: images.jvmArchives };
}
