// Builds our seven images (the five controllers, the manager and the console) from the one Dockerfile with buildah, on
// local bases (test/images/base.sh), and saves each as an OCI layout keyed by its inputs: with nothing changed, nothing is
// built. The install layer is built once and shared (`--layers`). `buildCached` is how every image here is built
// (the bed's ZooKeeper images too: zookeeper-images.ts); `saveCached`, its caching, serves an image made otherwise
// (the CoreDNS image, made from scratch: ../network/coredns-image.ts).
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { controllerImage, IMAGE_NAMES, type ImageName } from '../bed/controller-images.js';
import { contextDigest, imageKey } from './image-key.js';
import { lastUsed, type ImageStore } from './image-store.js';

export interface BuildImagesOptions {
  /** The repository whose test/images/base.sh makes the bases. */
  readonly repo: string;
  /** The tree the images are built from (its Dockerfile and sources): repo unless another is given (an earlier release's). */
  readonly tree?: string;
  /** The images that tree ships: IMAGE_NAMES unless another is given (an earlier release's, which had fewer). */
  readonly names?: readonly ImageName[];
  readonly store: ImageStore;
  /** A CA file this machine's Node trusts beyond its own (NODE_EXTRA_CA_CERTS: a proxy's, say): the build's npm needs it too. */
  readonly extraCaFile?: string | undefined;
  readonly progress: (line: string) => void;
}

export interface BuiltImage<Name extends string = ImageName> {
  readonly name: Name;
  /** The reference the image is tagged with, e.g. ghcr.io/zk-oam/workload:0.1.0, the one the manifests in deploy/ name. */
  readonly reference: string;
  /** The OCI layout it is saved as; its one tag is the name. */
  readonly layout: string;
  /** Whether this run built it (false: it was cached). */
  readonly built: boolean;
  readonly seconds: number;
}

/** An image saved in the store as the OCI layout of its name and key, made only when that layout is not there yet. */
export interface CachedImage<Name extends string> {
  readonly name: Name;
  /** What the image is tagged in buildah's storage once made. */
  readonly reference: string;
  readonly key: string;
}

/** One image to build with `buildah bud`, unless the layout of its key is in the store. */
export interface ImageBuild<Name extends string> extends CachedImage<Name> {
  /** The build context, where the Containerfile lies. */
  readonly context: string;
  /** buildah bud's options (build arguments, target, file), without the tag and the context. */
  readonly options: readonly string[];
}

const run = promisify(execFile);

/** The local base images test/images/base.sh builds. */
export type BaseKind = 'build' | 'run' | 'zookeeper' | 'jre';

/**
 * The bases asked for in this process, by storage and kind: the images are built side by side, and two of them on the
 * same base (the bed's stand-ins and ours on the run base) wait for one base.sh rather than run two into one layout.
 */
const basesAsked = new Map<string, Promise<string>>();

/** A local base image's reference, built by test/images/base.sh on first use (its progress goes to our stderr). */
export function localBase(repo: string, store: ImageStore, kind: BaseKind): Promise<string> {
  const asked = `${kind} in ${store.storage}`;
  let reference = basesAsked.get(asked);
  if (reference === undefined) {
    reference = runBaseScript(repo, store, kind);
    basesAsked.set(asked, reference);
    // A failed build is not kept: the next caller tries again.
    reference.catch(() => basesAsked.delete(asked));
  }
  return reference;
}

async function runBaseScript(repo: string, store: ImageStore, kind: BaseKind): Promise<string> {
  const script = join(repo, 'test', 'images', 'base.sh');
  const child = run('bash', [script, kind, store.storage], { encoding: 'utf8', maxBuffer: 1 << 20 });
  child.child.stderr?.pipe(process.stderr);
  const reference = (await child).stdout.trim().split('\n').at(-1);
  if (reference === undefined || reference === '') throw new Error(`${script} ${kind} printed no image reference`);
  return reference;
}

/** The build arguments that hand the extra CA to the build stage's npm, mounted read-only where it is here. */
function extraCaArgs(caFile: string | undefined): string[] {
  return caFile === undefined ? [] : ['-v', `${caFile}:${caFile}:ro`, '--build-arg', `NODE_EXTRA_CA_CERTS=${caFile}`];
}

/**
 * How many layouts of one name the cache keeps, the most recently used: worktrees and clones built side by side (a
 * change under test beside main) would otherwise evict each other's images at every run and rebuild them all.
 */
const LAYOUTS_KEPT_PER_NAME = 3;

/** Removes the layouts of `name` beyond the LAYOUTS_KEPT_PER_NAME most recently used (their directories' times). */
async function removeOlderLayouts(dir: string, name: string): Promise<void> {
  const layouts = await Promise.all(
    (await readdir(dir)).filter((entry) => entry.startsWith(`${name}-`) && !entry.endsWith('.partial')).map(async (entry) => ({ path: join(dir, entry), used: (await lastUsed(join(dir, entry))) ?? 0 })),
  );
  const older = layouts.sort((a, b) => b.used - a.used).slice(LAYOUTS_KEPT_PER_NAME);
  for (const layout of older) await rm(layout.path, { recursive: true, force: true });
}

/** Builds the image with `buildah bud` and saves it as the OCI layout of its key, or finds that layout already saved. */
export function buildCached<Name extends string>(store: ImageStore, build: ImageBuild<Name>, progress: (line: string) => void): Promise<BuiltImage<Name>> {
  const bud = ['bud', '--layers', '--isolation', 'chroot', '--quiet', ...build.options, '--tag', build.reference, '.'];
  return saveCached(store, build, () => store.buildah(bud, { cwd: build.context }), progress);
}

/**
 * Finds the image's layout saved in the store, or has `make` make the image (tagged with its reference in buildah's
 * storage) and saves it as that layout, the least recently used layouts of its name removed.
 */
export async function saveCached<Name extends string>(
  store: ImageStore,
  image: CachedImage<Name>,
  make: () => Promise<unknown>,
  progress: (line: string) => void,
): Promise<BuiltImage<Name>> {
  const { name, reference, key } = image;
  const started = Date.now();
  const layout = store.layout(name, key);
  if (existsSync(join(layout, 'index.json'))) {
    await store.markUsed(layout);
    progress(`${name}: cached (${key}), nothing to build`);
    return { name, reference, layout, built: false, seconds: 0 };
  }
  progress(`${name}: building ${reference}`);
  await make();
  await mkdir(dirname(layout), { recursive: true });
  await rm(`${layout}.partial`, { recursive: true, force: true });
  await store.buildah(['push', '--quiet', reference, `oci:${layout}.partial:${name}`]);
  await rename(`${layout}.partial`, layout);
  await removeOlderLayouts(dirname(layout), name);
  const built = { name, reference, layout, built: true, seconds: seconds(started) };
  progress(`${name}: built in ${String(built.seconds)} s (${key})`);
  return built;
}

export async function buildImages(options: BuildImagesOptions): Promise<BuiltImage[]> {
  const { repo, store, progress } = options;
  const started = Date.now();
  // Side by side: making a base is mostly waiting (mmdebstrap of the run base took 70 s for 29 CPU-seconds), so two
  // overlap well even beside the control plane's compile.
  const [build, run] = await Promise.all([localBase(repo, store, 'build'), localBase(repo, store, 'run')]);
  const bases = { build, run };
  progress(`bases ready in ${String(seconds(started))} s: ${bases.build}, ${bases.run}`);
  const tree = options.tree ?? repo;
  const context = await contextDigest(tree);
  const images: BuiltImage[] = [];
  for (const name of options.names ?? IMAGE_NAMES) {
    const build = {
      name,
      reference: controllerImage(name),
      key: imageKey({ context, name, inputs: [bases.build, bases.run] }),
      context: tree,
      options: [
        ...extraCaArgs(options.extraCaFile),
        '--build-arg',
        `BUILD_BASE=${bases.build}`,
        '--build-arg',
        `RUN_BASE=${bases.run}`,
        '--build-arg',
        `CONTROLLER=${name}`,
      ],
    };
    images.push(await buildCached(store, build, progress));
  }
  progress(`${String(images.filter((image) => image.built).length)} of ${String(images.length)} images built in ${String(seconds(started))} s`);
  return images;
}

export function seconds(since: number): number {
  return Math.round((Date.now() - since) / 1000);
}
