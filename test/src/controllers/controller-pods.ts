// Our controllers (and the console) installed the way a user installs them: `kubectl apply --server-side -k` of an
// overlay of deploy/<name> whose kustomize `images:` points the image at the bed's registry (as
// docs/getting-started.md tells a user to point it at theirs), after deploy/namespace and the CRDs, with the bed's
// NATS in the `zk-oam-nats` Secret the Deployments read. The node agent then runs each pod as a container of its image
// (test/src/bed/bed-images.ts), with the ServiceAccount token its Deployment mounts (the console mounts none).
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { stringify } from 'yaml';
import { AppsV1Api, CoordinationV1Api, CoreV1Api, type V1Deployment, type V1Pod } from '@kubernetes/client-node';
import type { BedInfo } from '../bed/index.js';
import { bedImageRepository, CONTROLLER_NAMES, SHIPPED_REGISTRY, type ControllerName, type ImageName } from '../bed/controller-images.js';
import { podReady } from '../pod-ready.js';
import { waitFor } from '../wait-for.js';
import { containerLogFile } from './container-log-tails.js';
import { CONTROLLER_NAMESPACE } from './controller-process.js';
import { kubectl } from './kubectl.js';
import { installCrds, installOam, repoRoot } from './manifests.js';
import { PooledKubeConfig } from '@zk-oam/runtime';

const NATS_SECRET = 'zk-oam-nats';

/** Changes an overlay makes to each Deployment it installs: its replicas, and environment variables set on its container. */
export interface DeploymentChanges {
  readonly replicas?: number;
  readonly env?: Readonly<Record<string, string>>;
}

/** One controller pod as the bed runs it. */
export interface ControllerPod {
  readonly name: string;
  readonly ip: string;
  readonly ready: boolean;
  readonly restarts: number;
  /** Where the agent writes its output (containerLogFile). */
  readonly logFile: string;
  /** The image its container names, and the one it runs (`<repository>@<digest>`), as its container status says. */
  readonly image: string;
  readonly imageID: string;
}

/** Where the controllers run: deploy/ puts them in zk-oam-system as zk-oam-<name>; a Helm release as <release>-<name>. */
export interface ControllerPlacement {
  readonly namespace: string;
  readonly release: string;
}

export class ControllerPods {
  private readonly core: CoreV1Api;
  private readonly apps: AppsV1Api;
  private readonly coordination: CoordinationV1Api;

  constructor(
    private readonly bed: BedInfo,
    private readonly placement: ControllerPlacement = { namespace: CONTROLLER_NAMESPACE, release: 'zk-oam' },
  ) {
    const kubeConfig = new PooledKubeConfig();
    kubeConfig.loadFromFile(bed.kubeconfig);
    this.core = kubeConfig.makeApiClient(CoreV1Api);
    this.apps = kubeConfig.makeApiClient(AppsV1Api);
    this.coordination = kubeConfig.makeApiClient(CoordinationV1Api);
  }

  /** What the controllers share, then every `deploy/<name>` with kubectl -k. */
  async install(names: readonly ImageName[]): Promise<void> {
    await this.installShared(names);
    await this.installDeployments(names);
  }

  /**
   * The namespace, then side by side the CRDs (and the OAM ones for appconfig), each Established, and the NATS Secret:
   * what the controllers need before they start, and what a user's objects need before they are applied.
   */
  async installShared(names: readonly ImageName[]): Promise<void> {
    await kubectl(this.bed, ['apply', '--server-side', '-k', join(repoRoot, 'deploy/namespace')]);
    const { url, user, password } = this.bed.nats;
    const secret = { apiVersion: 'v1', kind: 'Secret', metadata: { name: NATS_SECRET, namespace: CONTROLLER_NAMESPACE }, stringData: { url, user, password } };
    await Promise.all([
      installCrds(this.bed),
      names.includes('appconfig') || names.includes('manager') ? installOam(this.bed) : undefined,
      kubectl(this.bed, ['apply', '--server-side', '-f', '-'], JSON.stringify(secret)),
    ]);
  }

  /**
   * Every `deploy/<name>` with kubectl -k, through its overlay, side by side: each controller installs on its own. With
   * --force-conflicts: on a bed shared by test files, another may have bound the same roles to another ServiceAccount
   * (deploy/manager binds each controller's to the manager's), under the harness' field manager.
   */
  async installDeployments(names: readonly ImageName[], changes: DeploymentChanges = {}): Promise<void> {
    await Promise.all(names.map(async (name) => kubectl(this.bed, ['apply', '--server-side', '--force-conflicts', '-k', await this.writeOverlay(name, changes)])));
  }

  /** `<bed>/kustomize/<name>/`: deploy/<name> with its image in the bed's registry, and `changes`; returns the directory. */
  private async writeOverlay(name: ImageName, changes: DeploymentChanges): Promise<string> {
    const dir = join(this.bed.dir, 'kustomize', name);
    await mkdir(dir, { recursive: true });
    const env = Object.entries(changes.env ?? {}).map(([variable, value]) => ({ name: variable, value }));
    const deployment = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'any' },
      spec: {
        ...(changes.replicas === undefined ? {} : { replicas: changes.replicas }),
        ...(env.length === 0 ? {} : { template: { spec: { containers: [{ name: 'controller', env }] } } }),
      },
    };
    const kustomization = {
      apiVersion: 'kustomize.config.k8s.io/v1beta1',
      kind: 'Kustomization',
      resources: [relative(dir, join(repoRoot, 'deploy', name))],
      images: [{ name: `${SHIPPED_REGISTRY}/${name}`, newName: bedImageRepository(this.bed, name) }],
      ...(changes.replicas === undefined && env.length === 0 ? {} : { patches: [{ target: { kind: 'Deployment' }, patch: stringify(deployment) }] }),
    };
    await writeFile(join(dir, 'kustomization.yaml'), stringify(kustomization));
    return dir;
  }

  /** Deletes the Deployments and waits until their pods are gone (each releases its Lease on SIGTERM). */
  async uninstall(names: readonly ImageName[]): Promise<void> {
    for (const name of names) {
      await this.apps.deleteNamespacedDeployment({ namespace: this.placement.namespace, name: this.deploymentName(name) }).catch(() => undefined);
    }
    for (const name of names) await waitFor(`the ${name} controller pods gone`, () => this.pods(name), (pods) => pods.length === 0, 120_000);
  }

  async pods(name: ImageName): Promise<ControllerPod[]> {
    const { items } = await this.core.listNamespacedPod({ namespace: this.placement.namespace, labelSelector: `app.kubernetes.io/name=${this.deploymentName(name)}` });
    return items.filter((pod) => pod.metadata?.deletionTimestamp === undefined).map((pod) => this.describe(pod));
  }

  /**
   * The Deployment's replicas, all Ready, and each Lease of what it runs held by one of them: a controller's own, or those
   * of every controller the manager's CONTROLLERS names.
   */
  async waitReady(name: ControllerName | 'manager', timeoutMs = 120_000): Promise<ControllerPod[]> {
    const deployment = await this.apps.readNamespacedDeployment({ namespace: this.placement.namespace, name: this.deploymentName(name) });
    const replicas = deployment.spec?.replicas ?? 1;
    const leases = name === 'manager' ? controllersOf(deployment) : [name];
    return waitFor(
      `${String(replicas)} Ready ${name} pods, the Leases of ${leases.join(', ')} held by them`,
      async () => ({ pods: await this.pods(name), holders: await Promise.all(leases.map((lease) => this.leaseHolder(lease))) }),
      ({ pods, holders }) => pods.length === replicas && pods.every((pod) => pod.ready) && holders.every((holder) => pods.some((pod) => pod.name === holder)),
      timeoutMs,
    ).then(({ pods }) => pods);
  }

  async leaseHolder(name: ControllerName): Promise<string | undefined> {
    // The controller's own leader-election name, whatever its Deployment is called.
    const lease = await this.coordination.readNamespacedLease({ namespace: this.placement.namespace, name: deploymentName(name) }).catch(() => undefined);
    return lease?.spec?.holderIdentity ?? undefined;
  }

  /** The pid of the pod's container's first process, as the agent recorded it. */
  async processId(pod: string): Promise<number> {
    return Number((await readFile(join(this.bed.dir, 'agent', 'pids', `${this.placement.namespace}_${pod}`), 'utf8')).trim());
  }

  /** The command line of the pod's container's first process. */
  async commandLine(pod: string): Promise<string[]> {
    return (await readFile(`/proc/${String(await this.processId(pod))}/cmdline`, 'utf8')).split('\0').filter((word) => word !== '');
  }

  private deploymentName(name: ImageName): string {
    return `${this.placement.release}-${name}`;
  }

  private describe(pod: V1Pod): ControllerPod {
    const name = pod.metadata?.name ?? '';
    const status = pod.status?.containerStatuses?.[0];
    return {
      name,
      ip: pod.status?.podIP ?? '',
      ready: podReady(pod),
      restarts: status?.restartCount ?? 0,
      logFile: containerLogFile(this.bed, this.placement.namespace, name),
      image: status?.image ?? '',
      imageID: status?.imageID ?? '',
    };
  }
}

/** The controllers the manager's Deployment runs: its container's CONTROLLERS, every one when unset. */
export function controllersOf(deployment: V1Deployment): ControllerName[] {
  const value = deployment.spec?.template.spec?.containers[0]?.env?.find((variable) => variable.name === 'CONTROLLERS')?.value;
  return value === undefined ? [...CONTROLLER_NAMES] : CONTROLLER_NAMES.filter((name) => value.split(',').map((word) => word.trim()).includes(name));
}

/** Deployment, ServiceAccount, Lease and pod label share this name in deploy/<name>/. */
export function deploymentName(name: ControllerName): string {
  return `zk-oam-${name}`;
}
