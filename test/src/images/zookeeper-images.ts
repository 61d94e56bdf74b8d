// The bed's ZooKeeper images (test/images/zookeeper/Containerfile), one per layout the workload's start script knows:
// Debian's package, and a look-alike of the official image's layout made from the same Debian jars (the official image
// cannot be pulled here). Built and cached like the images of ours; bed images, which `--push` leaves alone.
import { join } from 'node:path';
import { ZOOKEEPER_IMAGE_LAYOUTS } from '@zk-oam/apis';
import { buildCached, localBase, seconds, type BaseKind, type BuildImagesOptions, type BuiltImage } from './build-images.js';
import { contextDigest, imageKey } from './image-key.js';

export const ZOOKEEPER_IMAGE_NAMES = ['zookeeper-debian', 'zookeeper-release'] as const;
export type ZookeeperImageName = (typeof ZOOKEEPER_IMAGE_NAMES)[number];

/** The Containerfile's stage that makes each image. */
const TARGETS = { 'zookeeper-debian': 'debian', 'zookeeper-release': 'release' } as const satisfies Record<ZookeeperImageName, string>;

/** The bases each image is built on, by its build argument; the release-files stage is the Debian base's. */
const BASES = { 'zookeeper-debian': ['zookeeper'], 'zookeeper-release': ['zookeeper', 'jre'] } as const satisfies Record<ZookeeperImageName, readonly BaseKind[]>;

/** Builds (or finds cached) the images named, by default both, and only the bases they are built on. */
export async function buildZookeeperImages(
  options: Pick<BuildImagesOptions, 'repo' | 'store' | 'progress'>,
  names: readonly ZookeeperImageName[] = ZOOKEEPER_IMAGE_NAMES,
): Promise<BuiltImage<ZookeeperImageName>[]> {
  const { repo, store, progress } = options;
  const started = Date.now();
  const kinds = [...new Set(names.flatMap((name) => BASES[name]))];
  const bases = new Map<BaseKind, string>(await Promise.all(kinds.map(async (kind) => [kind, await localBase(repo, store, kind)] as const)));
  progress(`ZooKeeper bases ready in ${String(seconds(started))} s: ${[...bases.values()].join(', ')}`);
  const context = join(repo, 'test', 'images', 'zookeeper');
  const digest = await contextDigest(context, 'Containerfile');
  const images: BuiltImage<ZookeeperImageName>[] = [];
  for (const name of names) {
    // Each image is keyed by the bases it is built on; the look-alike's lib/ is what the Debian layout's classpath
    // reaches, so it changes with it.
    const buildArgs = [
      `ZOOKEEPER_BASE=${bases.get('zookeeper') ?? ''}`,
      ...(name === 'zookeeper-release' ? [`JRE_BASE=${bases.get('jre') ?? ''}`, `DEBIAN_CLASSPATH=${ZOOKEEPER_IMAGE_LAYOUTS.debianClasspath.join(':')}`] : []),
    ];
    const key = imageKey({ context: digest, name, inputs: buildArgs });
    const build = {
      name,
      reference: `localhost/zk-oam/${name}:${key}`,
      key,
      context,
      options: ['--target', TARGETS[name], ...buildArgs.flatMap((arg) => ['--build-arg', arg])],
    };
    images.push(await buildCached(store, build, progress));
  }
  progress(`${String(images.filter((image) => image.built).length)} of ${String(images.length)} ZooKeeper images built in ${String(seconds(started))} s`);
  return images;
}

/** What the bed's workloads name as their image: the Debian layout's image, which the bed's nodes have under this reference. */
export const BED_ZOOKEEPER_IMAGE = { repository: 'localhost/zk-oam/zookeeper', tag: 'bed-debian' } as const;
