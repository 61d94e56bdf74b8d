// The OCI runtime spec of one container: the spec umoci writes for an image, with what a run decides set over it
// (command, environment, user, working directory, capabilities, seccomp, hostname, mounts, a read-only root, the network
// namespace to join), made runnable on this machine (no user namespace, no cgroup settings). Pure: the same image spec and
// run give the same spec.
import { z } from 'zod';
import { RUNTIME_DEFAULT_SECCOMP } from './seccomp-profile.js';

/** The parts of an OCI runtime spec read or changed here; the rest is kept as umoci wrote it. */
export const runtimeSpecSchema = z.looseObject({
  process: z.looseObject({
    args: z.array(z.string()).optional(),
    env: z.array(z.string()).optional(),
    cwd: z.string().optional(),
    user: z.looseObject({ uid: z.number(), gid: z.number(), additionalGids: z.array(z.number()).optional() }).optional(),
  }),
  root: z.looseObject({}),
  mounts: z.array(z.looseObject({ destination: z.string() })).optional(),
  linux: z.looseObject({ namespaces: z.array(z.looseObject({ type: z.string() })).default([]) }),
});
export type RuntimeSpec = z.infer<typeof runtimeSpecSchema>;

/** A host path mounted into the container, as a pod's volume is. */
export interface BindMount {
  readonly source: string;
  readonly destination: string;
  readonly readOnly: boolean;
}

export interface ContainerUser {
  readonly uid: number;
  readonly gid: number;
  readonly additionalGids?: readonly number[];
}

/** What a run changes of the image's process and root; what it leaves out stays the image's. */
export interface RunOptions {
  /** Replace the image's entrypoint and command. */
  readonly args?: readonly string[];
  /** Set over the image's environment, as a container's env is set over its image's. */
  readonly env?: Readonly<Record<string, string>>;
  readonly mounts?: readonly BindMount[];
  readonly user?: ContainerUser;
  readonly cwd?: string;
  readonly hostname?: string;
  /** The bounding, effective and permitted sets; none inheritable or ambient. Undefined: umoci's. */
  readonly capabilities?: readonly string[];
  /** Undefined: umoci's. */
  readonly noNewPrivileges?: boolean;
  /** RuntimeDefault: the runtime's default seccomp filter (seccomp-profile.ts); undefined: none, as for Unconfined. */
  readonly seccomp?: 'RuntimeDefault';
  /** A root filesystem the container can write to (into its own upper layer); by default it cannot. */
  readonly writableRoot?: boolean;
  /** The network namespace to join (a pod's sandbox); without one the container shares the runtime's. */
  readonly networkNamespace?: string;
}

/** The image's `NAME=value` list with `env` set over it. */
function withEnv(imageEnv: readonly string[], env: Readonly<Record<string, string>>): string[] {
  const kept = imageEnv.filter((pair) => !Object.hasOwn(env, pair.slice(0, pair.indexOf('='))));
  return [...kept, ...Object.entries(env).map(([name, value]) => `${name}=${value}`)];
}

function processOf(spec: RuntimeSpec, run: RunOptions): RuntimeSpec['process'] {
  // The container inherits the agent's resource limits, as under containerd, not umoci's defaults.
  const { rlimits: _rlimits, ...process } = spec.process;
  const sets = run.capabilities === undefined ? undefined : [...run.capabilities];
  return {
    ...process,
    terminal: false,
    ...(run.args === undefined ? {} : { args: [...run.args] }),
    ...(run.env === undefined ? {} : { env: withEnv(spec.process.env ?? [], run.env) }),
    ...(run.cwd === undefined ? {} : { cwd: run.cwd }),
    ...(run.user === undefined ? {} : { user: { uid: run.user.uid, gid: run.user.gid, additionalGids: [...(run.user.additionalGids ?? [])] } }),
    ...(sets === undefined ? {} : { capabilities: { bounding: sets, effective: sets, permitted: sets, inheritable: [], ambient: [] } }),
    ...(run.noNewPrivileges === undefined ? {} : { noNewPrivileges: run.noNewPrivileges }),
  };
}

/**
 * umoci's runtime spec, made runnable here: the run's network namespace (or the runtime's own), no user namespace, and
 * no cgroup settings (runc cannot apply them on this machine's hybrid cgroup layout); the root at `rootfs` in the bundle,
 * read-only unless the run asks otherwise; the run's process, hostname and mounts.
 */
export function containerSpec(spec: RuntimeSpec, run: RunOptions = {}): RuntimeSpec {
  const { resources: _resources, cgroupsPath: _cgroupsPath, uidMappings: _uidMappings, gidMappings: _gidMappings, ...kept } = spec.linux;
  const namespaces = spec.linux.namespaces.filter((namespace) => namespace.type !== 'network' && namespace.type !== 'user');
  const network = run.networkNamespace === undefined ? [] : [{ type: 'network', path: run.networkNamespace }];
  const { seccomp: _seccomp, ...unfiltered } = kept;
  const linux = { ...unfiltered, namespaces: [...namespaces, ...network], ...(run.seccomp === 'RuntimeDefault' ? { seccomp: RUNTIME_DEFAULT_SECCOMP } : {}) };
  const binds = (run.mounts ?? []).map(({ source, destination, readOnly }) => ({ destination, type: 'bind', source, options: ['rbind', readOnly ? 'ro' : 'rw'] }));
  return {
    ...spec,
    process: processOf(spec, run),
    root: { path: 'rootfs', readonly: run.writableRoot !== true },
    ...(run.hostname === undefined ? {} : { hostname: run.hostname }),
    ...(binds.length === 0 ? {} : { mounts: [...(spec.mounts ?? []), ...binds] }),
    linux,
  };
}
