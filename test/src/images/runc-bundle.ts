// Runs an image from its OCI layout with runc, as a container runtime would: unpacked by umoci, with the user,
// entrypoint and environment of the image, a read-only root, and the host's network (nothing of the machine's
// networking is touched). Not a kubelet: for tests that check what an image does when started.
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { runCommand, type CommandResult } from '../controllers/command.js';
import { commandOutput, NO_TIME_LIMIT } from './command.js';

/** The parts of an OCI runtime spec changed here; the rest is kept as umoci wrote it. */
const runtimeSpecSchema = z.looseObject({
  process: z.looseObject({}),
  root: z.looseObject({}),
  linux: z.looseObject({ namespaces: z.array(z.looseObject({ type: z.string() })).default([]) }),
});
type RuntimeSpec = z.infer<typeof runtimeSpecSchema>;

/**
 * umoci's runtime spec, made runnable here: no network namespace (the host's), no user namespace, and no cgroup
 * settings (runc cannot apply them on this machine's hybrid cgroup layout); a read-only root; `args` in place of the
 * image's entrypoint and command when given.
 */
export function runnableSpec(spec: RuntimeSpec, args?: readonly string[]): RuntimeSpec {
  const { resources: _resources, cgroupsPath: _cgroupsPath, uidMappings: _uidMappings, gidMappings: _gidMappings, ...kept } = spec.linux;
  const linux = { ...kept, namespaces: spec.linux.namespaces.filter((namespace) => namespace.type !== 'network' && namespace.type !== 'user') };
  return {
    ...spec,
    process: { ...spec.process, terminal: false, ...(args === undefined ? {} : { args: [...args] }) },
    root: { ...spec.root, readonly: true },
    linux,
  };
}

/** An image unpacked into a runtime bundle, run as often as a test likes, each time in a new container. */
export interface UnpackedImage {
  /** Runs the image once to its end; `args` replace its entrypoint and command. */
  run(args?: readonly string[]): Promise<CommandResult>;
  remove(): Promise<void>;
}

/** Unpacks the image tagged `tag` in the layout, with umoci, into a bundle made runnable here (runnableSpec). */
export async function unpackImage(layout: string, tag: string): Promise<UnpackedImage> {
  const dir = await mkdtemp(join(tmpdir(), 'zk-oam-runc-'));
  const bundle = join(dir, 'bundle');
  await commandOutput('umoci', ['unpack', '--image', `${layout}:${tag}`, bundle]);
  const specPath = join(bundle, 'config.json');
  const spec = runtimeSpecSchema.parse(JSON.parse(await readFile(specPath, 'utf8')));
  return {
    run: async (args) => {
      await writeFile(specPath, JSON.stringify(runnableSpec(spec, args)));
      return runCommand('runc', ['--root', join(dir, 'state'), 'run', '--bundle', bundle, `zk-oam-${randomUUID().slice(0, 8)}`], '', NO_TIME_LIMIT);
    },
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}
