// Runs an image from its OCI layout with runc, as a container runtime would (test/src/containers/: unpacked once per
// digest, the user, entrypoint and environment of the image, a read-only root, the host's network); a run may replace
// the command, add environment variables and bind-mount host paths, as a pod's command, env and volumes do. Not a
// kubelet: for tests that check what an image does when started. Each start has its output to itself.
import { randomUUID } from 'node:crypto';
import { closeSync, openSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CommandResult } from '../controllers/command.js';
import { startContainer, stopContainer } from '../containers/container-run.js';
import { ImageBundles } from '../containers/image-bundles.js';
import { Runc } from '../containers/runc.js';
import type { RunOptions } from '../containers/runtime-spec.js';
import type { ImageStore } from './image-store.js';

/** A container started in the background. */
export interface RunningContainer {
  /** Resolves when its process ends: exit code and everything it wrote. */
  readonly exited: Promise<CommandResult>;
  /** Whether its process has ended. */
  ended(): boolean;
  /** Sends SIGTERM to its process, and SIGKILL if it has not ended `graceMs` later; resolves as `exited` does. */
  stop(graceMs?: number): Promise<CommandResult>;
}

/** An image ready to run, as often as a test likes, each time in a new container. */
export interface UnpackedImage {
  /** Runs the image once to its end. */
  run(options?: RunOptions): Promise<CommandResult>;
  start(options?: RunOptions): Promise<RunningContainer>;
  /** Removes the containers' state and output; the unpacked image stays in the store for the next test. */
  remove(): Promise<void>;
}

/** The image tagged `tag` in the layout, unpacked into the store (once per digest), run under a runc root of its own. */
export async function unpackImage(store: ImageStore, layout: string, tag: string): Promise<UnpackedImage> {
  const image = await new ImageBundles(store).get(layout, tag);
  const dir = await mkdtemp(join(tmpdir(), 'zk-oam-runc-'));
  const runc = new Runc(join(dir, 'state'));
  const start = async (run: RunOptions = {}): Promise<RunningContainer> => {
    const id = `zk-oam-${randomUUID().slice(0, 8)}`;
    const files = { stdout: join(dir, `${id}.stdout`), stderr: join(dir, `${id}.stderr`) };
    const stdout = openSync(files.stdout, 'w');
    const stderr = openSync(files.stderr, 'w');
    const container = await startContainer(runc, { id, dir: join(dir, id), image, run, stdout, stderr }).finally(() => {
      closeSync(stdout);
      closeSync(stderr);
    });
    let ended = false;
    const exited = container.exited.then(async ({ exitCode }) => {
      ended = true;
      return { code: exitCode, stdout: await readFile(files.stdout, 'utf8'), stderr: await readFile(files.stderr, 'utf8') };
    });
    return {
      exited,
      ended: () => ended,
      stop: async (graceMs = 10_000) => {
        await stopContainer(container, graceMs);
        return exited;
      },
    };
  };
  return {
    run: async (options) => (await start(options)).exited,
    start,
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}
