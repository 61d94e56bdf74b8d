// Runs an image from its OCI layout with runc, as a container runtime would: unpacked by umoci, with the user,
// entrypoint and environment of the image, a read-only root, and the host's network (nothing of the machine's
// networking is touched); a run may add environment variables and bind-mount host paths, as a pod's env and volumes
// do. Not a kubelet: for tests that check what an image does when started.
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { runCommand, type CommandResult } from '../controllers/command.js';
import { commandOutput, NO_TIME_LIMIT } from './command.js';

/** The parts of an OCI runtime spec changed here; the rest is kept as umoci wrote it. */
const runtimeSpecSchema = z.looseObject({
  process: z.looseObject({ env: z.array(z.string()).optional() }),
  root: z.looseObject({}),
  mounts: z.array(z.looseObject({ destination: z.string() })).optional(),
  linux: z.looseObject({ namespaces: z.array(z.looseObject({ type: z.string() })).default([]) }),
});
type RuntimeSpec = z.infer<typeof runtimeSpecSchema>;

/** A host path mounted into the container, as a pod's volume is. */
export interface BindMount {
  readonly source: string;
  readonly destination: string;
  readonly readOnly: boolean;
}

/** What a run changes of the image's process: its command, variables set over the image's environment, mounts. */
export interface RunOptions {
  /** Replace the image's entrypoint and command. */
  readonly args?: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
  readonly mounts?: readonly BindMount[];
}

/** The image's `NAME=value` list with `env` set over it, as a container's env is set over its image's. */
function withEnv(imageEnv: readonly string[], env: Readonly<Record<string, string>>): string[] {
  const kept = imageEnv.filter((pair) => !Object.hasOwn(env, pair.slice(0, pair.indexOf('='))));
  return [...kept, ...Object.entries(env).map(([name, value]) => `${name}=${value}`)];
}

/**
 * umoci's runtime spec, made runnable here: no network namespace (the host's), no user namespace, and no cgroup
 * settings (runc cannot apply them on this machine's hybrid cgroup layout); a read-only root; the run's command,
 * environment and mounts.
 */
export function runnableSpec(spec: RuntimeSpec, run: RunOptions = {}): RuntimeSpec {
  const { resources: _resources, cgroupsPath: _cgroupsPath, uidMappings: _uidMappings, gidMappings: _gidMappings, ...kept } = spec.linux;
  const linux = { ...kept, namespaces: spec.linux.namespaces.filter((namespace) => namespace.type !== 'network' && namespace.type !== 'user') };
  const binds = (run.mounts ?? []).map(({ source, destination, readOnly }) => ({ destination, type: 'bind', source, options: ['rbind', readOnly ? 'ro' : 'rw'] }));
  return {
    ...spec,
    process: {
      ...spec.process,
      terminal: false,
      ...(run.args === undefined ? {} : { args: [...run.args] }),
      ...(run.env === undefined ? {} : { env: withEnv(spec.process.env ?? [], run.env) }),
    },
    root: { ...spec.root, readonly: true },
    ...(binds.length === 0 ? {} : { mounts: [...(spec.mounts ?? []), ...binds] }),
    linux,
  };
}

/** A container started in the background. */
export interface RunningContainer {
  /** Resolves when its process ends: exit code and everything it wrote. */
  readonly exited: Promise<CommandResult>;
  /** Whether its process has ended. */
  ended(): boolean;
  /** Sends SIGTERM to its process, and SIGKILL if it has not ended `graceMs` later; resolves as `exited` does. */
  stop(graceMs?: number): Promise<CommandResult>;
}

/** An image unpacked into a runtime bundle, run as often as a test likes, each time in a new container, one at a time. */
export interface UnpackedImage {
  /** Runs the image once to its end. */
  run(options?: RunOptions): Promise<CommandResult>;
  start(options?: RunOptions): Promise<RunningContainer>;
  remove(): Promise<void>;
}

/** Unpacks the image tagged `tag` in the layout, with umoci, into a bundle made runnable here (runnableSpec). */
export async function unpackImage(layout: string, tag: string): Promise<UnpackedImage> {
  const dir = await mkdtemp(join(tmpdir(), 'zk-oam-runc-'));
  const bundle = join(dir, 'bundle');
  const state = join(dir, 'state');
  await commandOutput('umoci', ['unpack', '--image', `${layout}:${tag}`, bundle]);
  const specPath = join(bundle, 'config.json');
  const spec = runtimeSpecSchema.parse(JSON.parse(await readFile(specPath, 'utf8')));
  const start = async (options: RunOptions = {}): Promise<RunningContainer> => {
    await writeFile(specPath, JSON.stringify(runnableSpec(spec, options)));
    const id = `zk-oam-${randomUUID().slice(0, 8)}`;
    let ended = false;
    const exited = runCommand('runc', ['--root', state, 'run', '--bundle', bundle, id], '', NO_TIME_LIMIT).finally(() => (ended = true));
    const signal = (name: string): Promise<CommandResult> => runCommand('runc', ['--root', state, 'kill', id, name], '', NO_TIME_LIMIT);
    return {
      exited,
      ended: () => ended,
      stop: async (graceMs = 10_000) => {
        await signal('TERM');
        const timer = setTimeout(() => void signal('KILL'), graceMs);
        try {
          return await exited;
        } finally {
          clearTimeout(timer);
        }
      },
    };
  };
  return {
    run: async (options) => (await start(options)).exited,
    start,
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}
