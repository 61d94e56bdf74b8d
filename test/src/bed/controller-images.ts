// The images of ours (the controllers' and the console's), each built from the one Dockerfile, and the reference
// deploy/ names it by: what the bed's nodes have under that reference.
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { parseImageReference } from '../images/image-reference.js';
import { releaseVersion } from '../release/version.js';
import { repoRoot } from './paths.js';

/** Each deployable controller: one more is one more entry here, its deploy/<name>/ and its workspace package. */
export const CONTROLLER_NAMES = ['workload', 'scale', 'rolling', 'appconfig', 'znode', 'backup'] as const;
export type ControllerName = (typeof CONTROLLER_NAMES)[number];
/** Every image the Dockerfile builds: the controllers, the manager that runs any set of them, and the console, which ships the same way. */
export const IMAGE_NAMES = [...CONTROLLER_NAMES, 'manager', 'console'] as const;
export type ImageName = (typeof IMAGE_NAMES)[number];

/** The workspace package an image is built from, found as the Dockerfile finds it: npm's link node_modules/@zk-oam/<name>. */
export function packageDir(name: ImageName): string {
  return realpathSync(join(repoRoot(), 'node_modules', '@zk-oam', name));
}

/** Where deploy/ and the chart say our images are: `<SHIPPED_REGISTRY>/<name>:<version>`. */
export const SHIPPED_REGISTRY = 'ghcr.io/zk-oam';

/** The tag our images carry: the release's version (test/src/release/version.ts). */
export function imageVersion(): string {
  return releaseVersion(repoRoot());
}

export function controllerImage(name: ImageName): string {
  return `${SHIPPED_REGISTRY}/${name}:${imageVersion()}`;
}

/** The repository a bed serves image `name` from: its path on the bed's registry, where bed-images.ts pushed it. */
export function bedImageRepository(bed: { readonly registry: string }, name: ImageName): string {
  return `${bed.registry}/${parseImageReference(controllerImage(name)).path}`;
}
