// One pod's life on a bed node: make its network sandbox, prepare volumes, env and image, run the container with runc
// and probe it, report status, stop on delete (and release the sandbox).
import type { CoreV1Api, V1Container, V1Pod } from '@kubernetes/client-node';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { backoffDelayMs, pause } from '@zk-oam/runtime';
import { describeError, isConflict, isNotFound } from './api-errors.js';
import { restartBackoff } from './restart-backoff.js';
import { ContainerProcess, type RestartPolicy } from './container-process.js';
import { withJvmArchive } from './jvm-archive.js';
import { ImageNotPresentError, ImagePullError, pullPolicyOf, type NodeImages } from './node-images.js';
import { InvalidImageReferenceError } from '../images/image-reference.js';
import { LaunchError, podContainerRun, type NodeFacts } from './pod-container.js';
import { renderPodHosts, renderPodResolvConf, type ClusterDns } from './pod-dns.js';
import type { PodNetworks, PodSandbox } from './pod-network.js';
import { runcLauncher } from './runc-launcher.js';
import { envReferences, resolveEnv, type EnvSources } from './pod-env.js';
import { renderPodStatus, type ObservedPod } from './pod-status.js';
import { PodStatusWriter } from './pod-status-writer.js';
import { podDirEnvName, type PidRegistry } from './pid-registry.js';
import { ProbeLoop, type ProbeContext } from './probe.js';
import { ClaimNotReadyError } from './volume-sources.js';
import { refreshDueAt, refreshTokenFile, type ProjectedTokenFile } from './projected-volume.js';
import { materialiseVolumes, type VolumeSourceReader } from './volumes.js';
import type { Runc } from '../containers/runc.js';

const tokenRetryMs = 10_000;

export interface PodWorkerDeps {
  core: CoreV1Api;
  nodeAllocatable: Readonly<Record<string, string>>;
  podsDir: string;
  /** The in-cluster API address every container is given (the `kubernetes` Service's). */
  apiServer: NodeFacts['apiServer'];
  /** Each pod's network sandbox, and the cluster DNS its resolv.conf names. */
  networks: PodNetworks;
  clusterDns: ClusterDns;
  images: NodeImages;
  /** The node's container runtime: runc under the agent's root, and where each container's bundle is made. */
  runtime: { runc: Runc; containersDir: string };
  pids: PidRegistry;
  volumes: VolumeSourceReader;
}

export class PodWorker {
  private readonly stopping = new AbortController();
  private readonly startTime = new Date();
  private readonly log: Logger;
  private readonly key: string;
  private container: ContainerProcess | undefined;
  private probes: ProbeLoop[] = [];
  private ready = false;
  private waitingReason: ObservedPod['waitingReason'];
  private imageID: string | undefined;
  private sandbox: PodSandbox | undefined;
  private readonly status: PodStatusWriter;
  private shutdown: Promise<void> | undefined;
  private preparing: Promise<void> | undefined;

  constructor(
    private pod: V1Pod,
    private readonly deps: PodWorkerDeps,
    log: Logger,
    private readonly onFinished: () => void,
  ) {
    this.key = `${pod.metadata?.namespace ?? ''}/${pod.metadata?.name ?? ''}`;
    this.log = log.child({ pod: this.key, uid: pod.metadata?.uid });
    this.status = new PodStatusWriter(deps.core, pod, this.log, (previous) => renderPodStatus(this.pod, this.observed(), previous));
  }

  start(): void {
    this.update(this.pod);
    if (this.shutdown === undefined) {
      this.preparing = this.prepareAndRun();
    }
  }

  update(pod: V1Pod): void {
    this.pod = pod;
    if (pod.metadata?.deletionTimestamp !== undefined) {
      this.stop('pod is being deleted', true).catch((error: unknown) => this.log.error({ err: error }, 'stopping the deleted pod failed'));
    } else {
      this.status.observe(pod);
    }
  }

  /** Stops the container (SIGTERM, grace, SIGKILL); with `deletePod`, then removes the pod as kubelet does. */
  stop(reason: string, deletePod: boolean, graceMs = this.graceMs()): Promise<void> {
    this.shutdown ??= this.runShutdown(reason, deletePod, graceMs);
    return this.shutdown;
  }

  private async runShutdown(reason: string, deletePod: boolean, graceMs: number): Promise<void> {
    this.log.info({ reason, graceMs }, 'stopping pod');
    this.stopping.abort();
    this.status.close();
    this.stopProbes();
    // A preparation under way ends first, so that the sandbox it may still be making is released here, before the
    // fleet can start a worker for the same pod (its sandbox has the same name).
    await this.preparing;
    await this.container?.stop(graceMs);
    if (this.sandbox !== undefined) {
      await this.deps.networks.remove(this.pod).catch((error: unknown) => this.log.error({ err: error }, 'releasing the pod network failed'));
      this.sandbox = undefined;
    }
    if (deletePod) {
      await this.deletePod();
    }
    this.log.info('pod stopped');
    this.onFinished();
  }

  private graceMs(): number {
    return (this.pod.metadata?.deletionGracePeriodSeconds ?? this.pod.spec?.terminationGracePeriodSeconds ?? 30) * 1000;
  }

  private async deletePod(): Promise<void> {
    const uid = this.pod.metadata?.uid;
    try {
      await this.deps.core.deleteNamespacedPod({
        name: this.pod.metadata?.name ?? '',
        namespace: this.pod.metadata?.namespace ?? '',
        gracePeriodSeconds: 0,
        body: { gracePeriodSeconds: 0, preconditions: { uid } },
      });
      this.log.info('pod deleted after its container stopped');
    } catch (error) {
      if (isNotFound(error) || isConflict(error)) {
        return;
      }
      this.log.error({ err: describeError(error) }, 'final pod delete failed');
    }
  }

  private async prepareAndRun(): Promise<void> {
    for (let attempt = 1; !this.stopping.signal.aborted; attempt += 1) {
      try {
        const container = await this.prepare();
        if (!this.stopping.signal.aborted) {
          this.container = container;
          container.start();
        }
        return;
      } catch (error) {
        if (this.stopping.signal.aborted) return;
        const delay = backoffDelayMs(attempt - 1, restartBackoff);
        this.log.warn({ err: describeError(error), delayMs: delay }, 'preparing the container failed; retrying');
        this.waitingReason = { reason: waitingReasonOf(error), message: describeError(error) };
        this.requestStatus();
        await pause(delay / 2, this.stopping.signal);
        if (error instanceof ImagePullError) {
          // As the kubelet: ErrImagePull for the attempt that failed, ImagePullBackOff while it waits for the next.
          this.waitingReason = { reason: 'ImagePullBackOff', message: `Back-off pulling image "${error.reference}"` };
          this.requestStatus();
        }
        await pause(delay / 2, this.stopping.signal);
      }
    }
  }

  private async prepare(): Promise<ContainerProcess> {
    const container = this.pod.spec?.containers[0];
    if (container === undefined) {
      throw new LaunchError('pod has no containers');
    }
    const podDir = join(this.deps.podsDir, this.key.replace('/', '_'));
    await mkdir(podDir, { recursive: true });
    const sandbox = await this.networkSandbox();
    const dnsFiles = { hosts: join(podDir, 'hosts'), resolvConf: join(podDir, 'resolv.conf') };
    await writeFile(dnsFiles.hosts, renderPodHosts(this.pod, sandbox.podIP));
    await writeFile(dnsFiles.resolvConf, renderPodResolvConf(this.pod, this.deps.clusterDns));
    this.log.info({ podDir }, 'materialising volumes');
    const volumes = await materialiseVolumes(this.pod, join(podDir, 'volumes'), this.deps.volumes);
    void this.keepTokensFresh(volumes.tokens);
    const containerEnv = resolveEnv(this.pod, container, await this.readEnvSources(container), {
      podIP: sandbox.podIP,
      hostIP: this.deps.networks.nodeAddress,
      nodeAllocatable: this.deps.nodeAllocatable,
    });
    const reference = container.image ?? '';
    const pullPolicy = pullPolicyOf(reference, container.imagePullPolicy);
    this.log.info({ image: reference, pullPolicy }, 'pulling the image');
    const { bundle: image, jvmArchive, imageID } = await this.deps.images.image(reference, pullPolicy);
    this.log.info({ image: reference, imageID }, 'image present');
    this.imageID = imageID;
    const podRun = podContainerRun(this.pod, container, image, containerEnv, volumes.directories, {
      apiServer: this.deps.apiServer,
      networkNamespace: sandbox.namespacePath,
      dnsFiles,
      marker: { name: podDirEnvName, value: podDir },
    });
    const run = jvmArchive === undefined ? podRun : withJvmArchive(podRun, jvmArchive);
    const { runc, containersDir } = this.deps.runtime;
    const name = `${this.pod.metadata?.namespace ?? ''}_${this.pod.metadata?.name ?? ''}_${(this.pod.metadata?.uid ?? '').slice(0, 8)}`;
    const launcher = runcLauncher({ runc, containersDir, name, image, run, logFile: join(podDir, 'container.log') });
    const supervised: ContainerProcess = new ContainerProcess(launcher, restartPolicyOf(this.pod), this.log, {
      onChange: () => this.requestStatus(),
      onStarted: async (pid) => {
        this.startProbes(container, { podIP: sandbox.podIP, ports: container.ports ?? [], exec: (words, timeoutMs) => supervised.exec(words, timeoutMs) });
        await this.deps.pids.record(this.key, pid);
      },
      onExited: async () => {
        this.stopProbes();
        await this.deps.pids.forget(this.key);
      },
    });
    return supervised;
  }

  /** The pod's network sandbox, made on the first attempt and kept across attempts and container restarts. */
  private async networkSandbox(): Promise<PodSandbox> {
    if (this.sandbox === undefined) {
      this.sandbox = await this.deps.networks.create(this.pod);
      if (this.stopping.signal.aborted) throw new LaunchError('pod stopped while its network was being made');
      this.requestStatus();
    }
    return this.sandbox;
  }

  /** Rewrites each projected token file at 80% of its lifetime until the pod stops, as kubelet does. */
  private async keepTokensFresh(initial: readonly ProjectedTokenFile[]): Promise<void> {
    let tokens = [...initial];
    while (tokens.length > 0 && !this.stopping.signal.aborted) {
      const due = Math.min(...tokens.map((token) => refreshDueAt(token, new Date()).getTime()));
      await pause(due - Date.now(), this.stopping.signal);
      if (this.stopping.signal.aborted) return;
      try {
        tokens = await Promise.all(
          tokens.map((token) => (refreshDueAt(token, new Date()).getTime() <= Date.now() ? refreshTokenFile(token, this.deps.volumes) : token)),
        );
        this.log.info({ files: tokens.length }, 'service account tokens renewed');
      } catch (error) {
        this.log.warn({ err: describeError(error), delayMs: tokenRetryMs }, 'renewing a service account token failed; retrying');
        await pause(tokenRetryMs, this.stopping.signal);
      }
    }
  }

  private async readEnvSources(container: V1Container): Promise<EnvSources> {
    const namespace = this.pod.metadata?.namespace ?? '';
    const references = envReferences(container);
    const configMaps = new Map<string, Record<string, string>>();
    const secrets = new Map<string, Record<string, string>>();
    for (const name of references.configMaps) {
      const data = await this.deps.volumes.configMap(namespace, name);
      if (data !== undefined) configMaps.set(name, decode(data));
    }
    for (const name of references.secrets) {
      const data = await this.deps.volumes.secret(namespace, name);
      if (data !== undefined) secrets.set(name, decode(data));
    }
    return { configMaps, secrets };
  }

  /** Probes restart with each container start, so a restarted container is not Ready until its probe passes again. */
  private startProbes(container: V1Container, context: ProbeContext): void {
    this.stopProbes();
    this.ready = container.readinessProbe === undefined;
    if (container.readinessProbe !== undefined) {
      this.probes.push(
        new ProbeLoop(container.readinessProbe, context, false, this.log.child({ probe: 'readiness' }), (healthy) => {
          this.ready = healthy;
          this.requestStatus();
        }),
      );
    }
    if (container.livenessProbe !== undefined) {
      this.probes.push(
        new ProbeLoop(container.livenessProbe, context, true, this.log.child({ probe: 'liveness' }), (healthy) => {
          if (!healthy) this.container?.restart('liveness probe failed');
        }),
      );
    }
    for (const probe of this.probes) probe.start();
    this.requestStatus();
  }

  private stopProbes(): void {
    for (const probe of this.probes) probe.stop();
    this.probes = [];
    this.ready = false;
  }

  private requestStatus(): void {
    this.status.request();
  }

  private observed(): ObservedPod {
    return {
      podIP: this.sandbox?.podIP,
      hostIP: this.deps.networks.nodeAddress,
      startTime: this.startTime,
      container: this.container?.snapshot(),
      waitingReason: this.waitingReason,
      imageID: this.imageID,
      ready: this.ready,
    };
  }
}

/** Waiting for a claim to bind is normal start-up; image problems have the kubelet's own reasons; anything else is a configuration problem of the pod. */
function waitingReasonOf(error: unknown): string {
  if (error instanceof ClaimNotReadyError) return 'ContainerCreating';
  if (error instanceof ImageNotPresentError) return 'ErrImageNeverPull';
  if (error instanceof ImagePullError) return 'ErrImagePull';
  if (error instanceof InvalidImageReferenceError) return 'InvalidImageName';
  return 'CreateContainerConfigError';
}

function restartPolicyOf(pod: V1Pod): RestartPolicy {
  const policy = pod.spec?.restartPolicy;
  return policy === 'OnFailure' || policy === 'Never' ? policy : 'Always';
}

function decode(data: Readonly<Record<string, Buffer>>): Record<string, string> {
  return Object.fromEntries(Object.entries(data).map(([key, value]) => [key, value.toString('utf8')]));
}
