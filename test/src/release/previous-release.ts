// The release an upgrade starts from: this repository at a pinned earlier commit, its tree kept in the cache (git
// archive, once) and its five images built from that tree's Dockerfile on the bases of ours, as images-main.ts --tests
// builds them before the suite: their npm ci needs the package registry, which the bed's network does not reach. A bed
// test then finds them cached and installs that tree's chart, naming the images where it pushed them.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { ControllerName } from '../bed/controller-images.js';
import { repoRoot } from '../bed/paths.js';
import { buildImages, type BuildImagesOptions, type BuiltImage } from '../images/build-images.js';
import { commandOutput } from '../images/command.js';

/** main before the chart took global.image.registry, watchNamespaces and CRDs as templates (its CRDs in crds/). */
export const PREVIOUS_RELEASE_COMMIT = '12c8333e91240bd6d9a96811df3f22965686692a';

const run = promisify(execFile);

/** `<cache>/releases/<commit>/`: the previous release's tree, written from git archive on first use. */
export async function previousReleaseTree(cacheDir: string): Promise<string> {
  const tree = join(cacheDir, 'releases', PREVIOUS_RELEASE_COMMIT);
  if (existsSync(tree)) return tree;
  const partial = `${tree}.partial`;
  await rm(partial, { recursive: true, force: true });
  await mkdir(partial, { recursive: true });
  await run('bash', ['-o', 'pipefail', '-c', `git -C "$1" archive ${PREVIOUS_RELEASE_COMMIT} | tar -x -C "$2"`, 'archive', repoRoot(), partial]);
  // The image key digests the files git lists in the build context (contextDigest): the tree is indexed for it.
  await commandOutput('git', ['init', '--quiet'], { cwd: partial });
  await commandOutput('git', ['add', '--all'], { cwd: partial });
  await rename(partial, tree);
  return tree;
}

/** The controllers the previous release ships (the znode controller came after it): its chart knows no others. */
export const PREVIOUS_RELEASE_CONTROLLERS = ['workload', 'scale', 'rolling', 'appconfig'] as const satisfies readonly ControllerName[];

/** The previous release's five images, built from its tree (or found cached), their layouts apart from ours. */
export async function previousReleaseImages(options: BuildImagesOptions, cacheDir: string): Promise<BuiltImage[]> {
  const tree = await previousReleaseTree(cacheDir);
  const names = [...PREVIOUS_RELEASE_CONTROLLERS, 'console'] as const;
  return buildImages({ ...options, tree, names, store: options.store.withLayouts(`oci-release-${PREVIOUS_RELEASE_COMMIT.slice(0, 12)}`) });
}
