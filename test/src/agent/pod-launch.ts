// Turns a pod's first container into a host command: env resolved, $(VAR) expanded, mount paths mapped to host dirs.
import type { V1Container, V1Pod } from '@kubernetes/client-node';
import { expandReferences } from './pod-env.js';
import { mapPath, type PathMapping } from './path-mapping.js';
import { podDirEnvName } from './pid-registry.js';

export interface HostEnvironment {
  /** Host-specific values that replace what the image would set (ZOOKEEPER_CLASSPATH, JAVA_HOME, PATH, ...). */
  overrides: Readonly<Record<string, string>>;
  /** Image -> its entrypoint as a host command, for containers that set no `command` (the container runtime's job). */
  imageEntrypoints: Readonly<Record<string, readonly string[]>>;
  /** The hosts file the JVM resolves pod names through. */
  hostsFile: string;
  /** The bed's options for short-lived JVMs, the first in JDK_JAVA_OPTIONS: whatever the pod sets comes later and wins. */
  jvmOptions: readonly string[];
}

export class LaunchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LaunchError';
  }
}

/** Every pod shares the host's network on the bed: a listener on all addresses would collide with the other pods'. */
const everyAddress = '0.0.0.0';

/**
 * The process environment: the container's env with paths mapped and `0.0.0.0` narrowed to the pod IP, then HOSTNAME,
 * the host overrides, the bed's JVM options and hosts file option (prepended to any JDK_JAVA_OPTIONS the pod sets) and
 * the pod-dir marker used to find our processes.
 */
export function processEnv(
  pod: V1Pod,
  containerEnv: Readonly<Record<string, string>>,
  mappings: readonly PathMapping[],
  host: HostEnvironment,
  podDir: string,
  podIP: string,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(containerEnv)) {
    env[name] = value === everyAddress ? podIP : mapPath(value, mappings);
  }
  const jvmOptions = [...host.jvmOptions, `-Djdk.net.hosts.file=${host.hostsFile}`, containerEnv['JDK_JAVA_OPTIONS'] ?? ''].join(' ').trim();
  return {
    ...env,
    HOSTNAME: pod.spec?.hostname ?? pod.metadata?.name ?? '',
    HOME: podDir,
    ...host.overrides,
    JDK_JAVA_OPTIONS: jvmOptions,
    [podDirEnvName]: podDir,
  };
}

/**
 * command + args with kubelet's $(VAR) expansion and mount-path mapping. Without a command, the image's entrypoint from
 * the agent's table runs, followed by the args, as a container runtime would do.
 */
export function commandLine(
  container: V1Container,
  env: Readonly<Record<string, string>>,
  mappings: readonly PathMapping[],
  imageEntrypoints: Readonly<Record<string, readonly string[]>>,
): string[] {
  const words = [...(container.command ?? []), ...(container.args ?? [])].map((word) => mapPath(expandReferences(word, env), mappings));
  if (container.command !== undefined && container.command.length > 0) return words;
  const entrypoint = imageEntrypoints[container.image ?? ''];
  if (entrypoint === undefined) {
    throw new LaunchError(`container ${container.name} has no command and the bed agent knows no entrypoint for image ${container.image ?? '(none)'}`);
  }
  return [...entrypoint, ...words];
}

/** Same mapping for exec probe commands (no $(VAR) expansion, as kubelet does not expand probe commands). */
export function probeCommandLine(command: readonly string[], mappings: readonly PathMapping[]): string[] {
  return command.map((word) => mapPath(word, mappings));
}
