// What the bed's node agent runs for each controller image: the Dockerfile's entrypoint, with the image's /app (where
// the Dockerfile copies controllers/<name>/dist/) mapped to that directory here and `node` to this Node. One source of
// truth, so the bed runs exactly what the image would.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './paths.js';

export const CONTROLLER_NAMES = ['workload', 'scale', 'rolling', 'appconfig'] as const;
export type ControllerName = (typeof CONTROLLER_NAMES)[number];

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

export function controllerImage(name: ControllerName): string {
  const { version } = JSON.parse(readFileSync(join(repoRoot(), 'controllers', name, 'package.json'), 'utf8')) as { version: string };
  return `ghcr.io/zk-oam/${name}:${version}`;
}

export function bundleDir(name: ControllerName): string {
  return join(repoRoot(), 'controllers', name, 'dist');
}

/** image -> host command, for the agent's --images file. */
export function controllerImageEntrypoints(nodeExecutable = process.execPath): Record<string, string[]> {
  const { entrypoint } = dockerfileFacts(readFileSync(join(repoRoot(), 'Dockerfile'), 'utf8'));
  return Object.fromEntries(
    CONTROLLER_NAMES.map((name) => [
      controllerImage(name),
      entrypoint.map((word) => (word === 'node' ? nodeExecutable : word.startsWith(`${imageRoot}/`) ? join(bundleDir(name), word.slice(imageRoot.length)) : word)),
    ]),
  );
}
