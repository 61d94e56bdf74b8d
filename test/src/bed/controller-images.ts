// What the bed's node agent runs for each image of ours (the controllers' and the console's): the Dockerfile's
// entrypoint, with the image's /app (where the Dockerfile copies the package's dist/) mapped to that directory here and
// `node` to this Node. One source of truth, so the bed runs exactly what the image would.
import { readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './paths.js';

export const CONTROLLER_NAMES = ['workload', 'scale', 'rolling', 'appconfig'] as const;
export type ControllerName = (typeof CONTROLLER_NAMES)[number];
/** Every image the Dockerfile builds: the controllers, and the console, which ships the same way. */
export const IMAGE_NAMES = [...CONTROLLER_NAMES, 'console'] as const;
export type ImageName = (typeof IMAGE_NAMES)[number];

const imageRoot = '/app';

export interface DockerfileFacts {
  readonly entrypoint: readonly string[];
  /** Where the build stage's output is copied from, with ${CONTROLLER} unexpanded. */
  readonly copiedFrom: string;
  readonly copiedTo: string;
}

/** The ENTRYPOINT and the COPY of the bundle into the run stage. */
export function dockerfileFacts(text: string): DockerfileFacts {
  const entrypoint = /^ENTRYPOINT (\[.*\])$/m.exec(text)?.[1];
  const copy = /^COPY --from=build \S* ?(\S+) (\S+)$/m.exec(text);
  if (entrypoint === undefined || copy === null) throw new Error('the Dockerfile has no ENTRYPOINT [...] or no COPY --from=build');
  return { entrypoint: JSON.parse(entrypoint) as string[], copiedFrom: copy[1] ?? '', copiedTo: copy[2] ?? '' };
}

/** The workspace package an image is built from, found as the Dockerfile finds it: npm's link node_modules/@zk-oam/<name>. */
export function packageDir(name: ImageName): string {
  return realpathSync(join(repoRoot(), 'node_modules', '@zk-oam', name));
}

export function controllerImage(name: ImageName): string {
  const { version } = JSON.parse(readFileSync(join(packageDir(name), 'package.json'), 'utf8')) as { version: string };
  return `ghcr.io/zk-oam/${name}:${version}`;
}

export function bundleDir(name: ImageName): string {
  return join(packageDir(name), 'dist');
}

/** image -> host command, for the agent's --images file. */
export function controllerImageEntrypoints(nodeExecutable = process.execPath): Record<string, string[]> {
  const { entrypoint } = dockerfileFacts(readFileSync(join(repoRoot(), 'Dockerfile'), 'utf8'));
  return Object.fromEntries(
    IMAGE_NAMES.map((name) => [
      controllerImage(name),
      entrypoint.map((word) => (word === 'node' ? nodeExecutable : word.startsWith(`${imageRoot}/`) ? join(bundleDir(name), word.slice(imageRoot.length)) : word)),
    ]),
  );
}
