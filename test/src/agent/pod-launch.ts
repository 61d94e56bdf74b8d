// Turns a pod's first container into a host command: env resolved, $(VAR) expanded, mount paths mapped to host dirs.
import type { V1Container, V1Pod } from '@kubernetes/client-node';
import { expandReferences } from './pod-env.js';
import { mapPath, type PathMapping } from './path-mapping.js';
import { podDirEnvName } from './pid-registry.js';

export interface HostEnvironment {
  /** Host-specific values that replace what the image would set (ZOOKEEPER_CLASSPATH, JAVA_HOME, PATH, ...). */
  overrides: Readonly<Record<string, string>>;
  /** The hosts file the JVM resolves pod names through. */
  hostsFile: string;
}

export class LaunchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LaunchError';
  }
}

/**
 * The process environment: the container's env with paths mapped, then HOSTNAME, the host overrides, the JVM hosts
 * file option (prepended to any JDK_JAVA_OPTIONS the pod sets) and the pod-dir marker used to find our processes.
 */
export function processEnv(
  pod: V1Pod,
  containerEnv: Readonly<Record<string, string>>,
  mappings: readonly PathMapping[],
  host: HostEnvironment,
  podDir: string,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(containerEnv)) {
    env[name] = mapPath(value, mappings);
  }
  const jvmOptions = [`-Djdk.net.hosts.file=${host.hostsFile}`, containerEnv['JDK_JAVA_OPTIONS'] ?? ''].join(' ').trim();
  return {
    ...env,
    HOSTNAME: pod.spec?.hostname ?? pod.metadata?.name ?? '',
    HOME: podDir,
    ...host.overrides,
    JDK_JAVA_OPTIONS: jvmOptions,
    [podDirEnvName]: podDir,
  };
}

/** command + args with kubelet's $(VAR) expansion and mount-path mapping; the agent cannot read image entrypoints. */
export function commandLine(container: V1Container, env: Readonly<Record<string, string>>, mappings: readonly PathMapping[]): string[] {
  const words = [...(container.command ?? []), ...(container.args ?? [])].map((word) => mapPath(expandReferences(word, env), mappings));
  if (container.command === undefined || container.command.length === 0) {
    throw new LaunchError(`container ${container.name} has no command: the bed agent cannot run image entrypoints`);
  }
  return words;
}

/** Same mapping for exec probe commands (no $(VAR) expansion, as kubelet does not expand probe commands). */
export function probeCommandLine(command: readonly string[], mappings: readonly PathMapping[]): string[] {
  return command.map((word) => mapPath(word, mappings));
}
