// A pod's container as the runtime runs it, by kubelet's rules: its command line from the image's entrypoint and
// command and the container's command and args, its environment over the image's, the user and groups, capabilities
// and seccomp profile of its security context, its working directory, hostname and volume mounts, and whether its root
// may be written. Pure.
import type { V1Capabilities, V1Container, V1Pod, V1PodSecurityContext, V1SeccompProfile, V1SecurityContext } from '@kubernetes/client-node';
import type { ImageBundle } from '../containers/image-bundles.js';
import type { BindMount, ContainerUser, RunOptions } from '../containers/runtime-spec.js';
import { expandReferences } from './pod-env.js';

/** The container cannot be run as its pod describes it (kubelet's CreateContainerConfigError). */
export class LaunchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LaunchError';
  }
}

/** What the node gives every container of a pod, beside what the pod and the image say. */
export interface NodeFacts {
  /** The in-cluster API address: the `kubernetes` Service's. */
  readonly apiServer: { readonly host: string; readonly port: string };
  /** The pod's sandbox: the network namespace its containers join. */
  readonly networkNamespace: string;
  /** The pod's /etc/hosts and /etc/resolv.conf, as the kubelet writes them (pod-dns.ts). */
  readonly dnsFiles: { readonly hosts: string; readonly resolvConf: string };
  /** Set on every container as `<name>=<pod directory>`, so that the bed's reaper recognises its processes. */
  readonly marker: { readonly name: string; readonly value: string };
}

/** containerd's default capabilities, which a container starts from before its security context adds and drops. */
const DEFAULT_CAPABILITIES = [
  'CHOWN', 'DAC_OVERRIDE', 'FSETID', 'FOWNER', 'MKNOD', 'NET_RAW', 'SETGID', 'SETUID', 'SETFCAP', 'SETPCAP', 'NET_BIND_SERVICE', 'SYS_CHROOT', 'KILL', 'AUDIT_WRITE',
] as const;

/** Kubernetes' command and args over the image's entrypoint and command, with `$(VAR)` expanded from the container's env. */
export function commandLine(container: V1Container, image: ImageBundle['config'], env: Readonly<Record<string, string>>): string[] {
  const expand = (words: readonly string[]): string[] => words.map((word) => expandReferences(word, env));
  const command = container.command ?? [];
  const args = container.args ?? [];
  if (command.length > 0) return expand([...command, ...args]);
  const words = [...image.entrypoint, ...(args.length > 0 ? expand(args) : image.cmd)];
  if (words.length === 0) throw new LaunchError(`container ${container.name} has no command, and its image ${container.image ?? ''} none either`);
  return words;
}

/** The container's security context over the pod's, field by field, as kubelet merges them. */
function securityOf(pod: V1Pod, container: V1Container): V1SecurityContext & Pick<V1PodSecurityContext, 'fsGroup' | 'supplementalGroups'> {
  const { fsGroup, supplementalGroups, runAsUser, runAsGroup, runAsNonRoot, seccompProfile } = pod.spec?.securityContext ?? {};
  const own = container.securityContext ?? {};
  return {
    fsGroup,
    supplementalGroups,
    runAsUser: own.runAsUser ?? runAsUser,
    runAsGroup: own.runAsGroup ?? runAsGroup,
    runAsNonRoot: own.runAsNonRoot ?? runAsNonRoot,
    readOnlyRootFilesystem: own.readOnlyRootFilesystem,
    allowPrivilegeEscalation: own.allowPrivilegeEscalation,
    capabilities: own.capabilities,
    seccompProfile: own.seccompProfile ?? seccompProfile,
  };
}

/**
 * The kubelet's seccomp choice: RuntimeDefault filters, Unconfined or none (the kubelet's default without
 * --seccomp-default) does not. A Localhost profile names a file on the node, and the bed's nodes hold none.
 */
function seccompOf(profile: V1SeccompProfile | undefined, container: V1Container): RunOptions['seccomp'] {
  if (profile?.type === 'Localhost') throw new LaunchError(`container ${container.name} asks for the Localhost seccomp profile ${profile.localhostProfile ?? ''}, which this node does not have`);
  return profile?.type === 'RuntimeDefault' ? 'RuntimeDefault' : undefined;
}

/**
 * uid: runAsUser, else the image's user (umoci resolved a name through the image's /etc/passwd); gid: runAsGroup, else
 * the image user's group when the uid is the image's, else 0; the image user's groups, supplementalGroups and fsGroup.
 */
function userOf(security: ReturnType<typeof securityOf>, image: ImageBundle, container: V1Container): ContainerUser {
  const imageUser = image.spec.process.user ?? { uid: 0, gid: 0 };
  const uid = security.runAsUser ?? imageUser.uid;
  const gid = security.runAsGroup ?? (uid === imageUser.uid ? imageUser.gid : 0);
  if (security.runAsNonRoot === true && uid === 0) {
    throw new LaunchError(`container ${container.name} has runAsNonRoot and its image ${container.image ?? ''} will run as root`);
  }
  const groups = [...(imageUser.additionalGids ?? []), ...(security.supplementalGroups ?? []), ...(security.fsGroup === undefined ? [] : [security.fsGroup])];
  return { uid, gid, additionalGids: [...new Set(groups)].filter((group) => group !== gid) };
}

function capabilitiesOf(capabilities: V1Capabilities | undefined): string[] {
  const drop = new Set(capabilities?.drop ?? []);
  const kept = drop.has('ALL') ? [] : DEFAULT_CAPABILITIES.filter((name) => !drop.has(name));
  return [...new Set([...kept, ...(capabilities?.add ?? [])])].map((name) => `CAP_${name}`);
}

/** Each volumeMount at its mountPath (subPath appended to the volume's directory), then the pod's DNS files, as kubelet mounts them. */
function mountsOf(container: V1Container, volumes: ReadonlyMap<string, string>, dnsFiles: NodeFacts['dnsFiles']): BindMount[] {
  const mounts = (container.volumeMounts ?? []).map((mount) => {
    const directory = volumes.get(mount.name);
    if (directory === undefined) throw new LaunchError(`container ${container.name} mounts volume ${mount.name}, which the pod does not provide`);
    return { source: mount.subPath ? `${directory}/${mount.subPath}` : directory, destination: mount.mountPath, readOnly: mount.readOnly === true };
  });
  const dns = [
    { source: dnsFiles.hosts, destination: '/etc/hosts', readOnly: true },
    { source: dnsFiles.resolvConf, destination: '/etc/resolv.conf', readOnly: true },
  ].filter((file) => !mounts.some((mount) => mount.destination === file.destination));
  return [...mounts, ...dns];
}

/** The kubelet's variables, then the container's, then the bed's marker. */
function envOf(pod: V1Pod, containerEnv: Readonly<Record<string, string>>, node: NodeFacts): Record<string, string> {
  const env: Record<string, string> = {
    HOSTNAME: pod.spec?.hostname ?? pod.metadata?.name ?? '',
    KUBERNETES_SERVICE_HOST: node.apiServer.host,
    KUBERNETES_SERVICE_PORT: node.apiServer.port,
    KUBERNETES_SERVICE_PORT_HTTPS: node.apiServer.port,
  };
  return { ...env, ...containerEnv, [node.marker.name]: node.marker.value };
}

/** The run of `container` of `pod` from `image`, its env resolved (`containerEnv`) and its volumes materialised. */
export function podContainerRun(
  pod: V1Pod,
  container: V1Container,
  image: ImageBundle,
  containerEnv: Readonly<Record<string, string>>,
  volumes: ReadonlyMap<string, string>,
  node: NodeFacts,
): RunOptions {
  const security = securityOf(pod, container);
  const seccomp = seccompOf(security.seccompProfile, container);
  const cwd = container.workingDir ?? image.config.workingDir;
  return {
    args: commandLine(container, image.config, containerEnv),
    env: envOf(pod, containerEnv, node),
    user: userOf(security, image, container),
    ...(cwd === undefined ? {} : { cwd }),
    hostname: pod.spec?.hostname ?? pod.metadata?.name ?? '',
    mounts: mountsOf(container, volumes, node.dnsFiles),
    networkNamespace: node.networkNamespace,
    capabilities: capabilitiesOf(security.capabilities),
    noNewPrivileges: security.allowPrivilegeEscalation === false,
    ...(seccomp === undefined ? {} : { seccomp }),
    writableRoot: security.readOnlyRootFilesystem !== true,
  };
}
