// For the operator-upgrade test: what an upgrade of the controllers must leave alone (each member pod, by uid and
// restart count; the StatefulSet's pod template; the spec of each ZooKeeper object as the apiserver serves it), and
// the positive sign that a controller of the new (or restored) release has taken over and reconciled its objects.
import { AppsV1Api, CoreV1Api, CustomObjectsApi } from '@kubernetes/client-node';
import { memberSelectorOf, statefulSetNameOf, ZOOKEEPER_ROLLING, ZOOKEEPER_SCALE, ZOOKEEPER_WORKLOAD } from '@zk-oam/apis';
import { PooledKubeConfig } from '@zk-oam/runtime';
import { z } from 'zod';
import type { BedInfo } from '../src/bed/index.js';
import type { ControllerName } from '../src/bed/controller-images.js';
import type { ControllerPod, ControllerPods } from '../src/controllers/controller-pods.js';
import { kubectl, waitFor } from '../src/controllers/index.js';
import { sampleValues } from '../src/controllers/metric-samples.js';

export interface EnsembleObjects {
  readonly namespace: string;
  readonly workload: string;
  readonly scaleTrait: string;
  readonly rollingTrait: string;
}

/** What an upgrade that leaves the ensemble alone leaves exactly as it was. */
export interface UntouchedState {
  /** Each member pod by name: its uid (a new pod has a new one) and its container's restart count. */
  readonly members: Record<string, { readonly uid: string; readonly restarts: number }>;
  /** A changed pod template moves the generation and the update revision before any pod restarts. */
  readonly statefulSet: { readonly generation: number | undefined; readonly updateRevision: string | undefined; readonly template: unknown };
  /** The spec of the workload and of each trait, as stored, by kind. */
  readonly specs: Record<string, unknown>;
}

export class EnsembleState {
  private readonly core: CoreV1Api;
  private readonly apps: AppsV1Api;
  private readonly objects: CustomObjectsApi;

  constructor(
    bed: BedInfo,
    private readonly ensemble: EnsembleObjects,
  ) {
    const kubeConfig = new PooledKubeConfig();
    kubeConfig.loadFromFile(bed.kubeconfig);
    this.core = kubeConfig.makeApiClient(CoreV1Api);
    this.apps = kubeConfig.makeApiClient(AppsV1Api);
    this.objects = kubeConfig.makeApiClient(CustomObjectsApi);
  }

  async read(): Promise<UntouchedState> {
    const { namespace, workload, scaleTrait, rollingTrait } = this.ensemble;
    const pods = await this.core.listNamespacedPod({ namespace, labelSelector: memberSelectorOf(workload) });
    const members = Object.fromEntries(
      pods.items.map((pod) => [pod.metadata?.name ?? '', { uid: pod.metadata?.uid ?? '', restarts: pod.status?.containerStatuses?.reduce((sum, status) => sum + status.restartCount, 0) ?? 0 }]),
    );
    const statefulSet = await this.apps.readNamespacedStatefulSet({ namespace, name: statefulSetNameOf(workload) });
    const specs = {
      [ZOOKEEPER_WORKLOAD.kind]: await this.specOf(ZOOKEEPER_WORKLOAD, workload),
      [ZOOKEEPER_SCALE.kind]: await this.specOf(ZOOKEEPER_SCALE, scaleTrait),
      [ZOOKEEPER_ROLLING.kind]: await this.specOf(ZOOKEEPER_ROLLING, rollingTrait),
    };
    return {
      members,
      statefulSet: { generation: statefulSet.metadata?.generation, updateRevision: statefulSet.status?.updateRevision, template: statefulSet.spec?.template },
      specs,
    };
  }

  private async specOf(kind: { group: string; version: string; plural: string }, name: string): Promise<unknown> {
    const object: unknown = await this.objects.getNamespacedCustomObject({ group: kind.group, version: kind.version, plural: kind.plural, namespace: this.ensemble.namespace, name });
    return typeof object === 'object' && object !== null && 'spec' in object ? object.spec : undefined;
  }
}

const crdListSchema = z.object({
  items: z.array(z.object({ metadata: z.object({ name: z.string(), annotations: z.record(z.string(), z.string()).optional() }) })),
});

export const ZOOKEEPER_CRD_NAMES = [ZOOKEEPER_WORKLOAD, ZOOKEEPER_SCALE, ZOOKEEPER_ROLLING].map((kind) => `${kind.plural}.${kind.group}`);

/** The Helm release each ZooKeeper CRD belongs to (its meta.helm.sh/release-name), by CRD name; '' for none. */
export async function crdReleases(bed: BedInfo): Promise<Record<string, string>> {
  const list = crdListSchema.parse(JSON.parse(await kubectl(bed, ['get', 'crd', ...ZOOKEEPER_CRD_NAMES, '-o', 'json'])));
  return Object.fromEntries(list.items.map(({ metadata }) => [metadata.name, metadata.annotations?.['meta.helm.sh/release-name'] ?? '']));
}

/** How a controller shows it has reconciled the objects it is given, on its leader's /metrics. */
export interface TakeOver {
  readonly controller: ControllerName;
  /** The image its pods run once rolled out. */
  readonly image: string;
  /** A trait controller's one trait: its zookeeper_trait_blocked series, 0, is written by that trait's reconcile. */
  readonly trait?: { readonly namespace: string; readonly name: string };
}

const METRICS_PORT = 8080;

/**
 * The controller's pods all run `image`, are Ready, one holds its Lease, and that leader has reconciled without
 * error: controller_runtime_reconcile_total counts a completed reconcile (of the watched namespace's one workload, for
 * the workload controller), and a trait controller reports its trait not Blocked. A fresh process starts its counters
 * at 0, so nothing an earlier release did is counted.
 */
export async function waitTakenOver(pods: ControllerPods, takeOver: TakeOver, timeoutMs: number): Promise<ControllerPod> {
  const { controller, image, trait } = takeOver;
  return waitFor(
    `the ${controller} controller on ${image}, its leader reconciled without error`,
    async () => {
      const running = await pods.pods(controller);
      const holder = await pods.leaseHolder(controller);
      const leader = running.find((pod) => pod.name === holder);
      const exposition = leader?.ready === true ? await (await fetch(`http://${leader.ip}:${String(METRICS_PORT)}/metrics`)).text() : '';
      return { running, leader, exposition };
    },
    ({ running, leader, exposition }) => {
      if (leader === undefined || !running.every((pod) => pod.ready && pod.image === image)) return false;
      const completed = [...sampleValues(exposition, 'controller_runtime_reconcile_total', { controller, result: 'success' }), ...sampleValues(exposition, 'controller_runtime_reconcile_total', { controller, result: 'requeue_after' })];
      const errors = sampleValues(exposition, 'controller_runtime_reconcile_errors_total', { controller });
      const traitReported = trait === undefined || sampleValues(exposition, 'zookeeper_trait_blocked', trait).some((value) => value === 0);
      return completed.reduce((sum, value) => sum + value, 0) > 0 && errors.every((value) => value === 0) && traitReported;
    },
    timeoutMs,
    2_000,
  ).then(({ leader }) => {
    if (leader === undefined) throw new Error(`no ${controller} leader`);
    return leader;
  });
}
