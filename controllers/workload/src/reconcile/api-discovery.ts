// Whether the cluster serves a group/version with given resources (monitoring.coreos.com/v1 ServiceMonitor and
// PrometheusRule; cert-manager.io/v1 Certificate), from API discovery, remembered for a while so each reconcile does not
// ask again. Discovery, not an informer: a watch on a kind the cluster does not serve would fail forever.
import { isApiError, type KubeClient, type ResourceType } from '@zk-oam/runtime';
import { z } from 'zod';

const groupListSchema = z.looseObject({
  groups: z.array(z.looseObject({ name: z.string(), versions: z.array(z.looseObject({ groupVersion: z.string() })) })),
});
const resourceListSchema = z.looseObject({ resources: z.array(z.looseObject({ name: z.string() })) });

export interface ApiDiscoveryOptions {
  readonly client: Pick<KubeClient, 'request'>;
  /** The resources that must all be served; of one group and version. */
  readonly resources: readonly [ResourceType, ...ResourceType[]];
  /** How often the answer is asked again; the CRDs may be installed or removed at any time. */
  readonly ttlMs: number;
  /** Called when an answer asked again differs from the last: the workloads then need another look. */
  readonly onChange?: () => void;
}

/**
 * A cache of one discovery answer. The first call asks the apiserver; the answer is then asked again every TTL in the
 * background, and a change calls `onChange`. A reconcile so never waits on discovery once an answer is known (a stale
 * one was a round trip before the StatefulSet of a new workload), and an install of the CRDs reaches every workload
 * within a TTL, whether anything else reconciles it or not. Calls while the first question is out share it.
 */
export class ApiDiscovery {
  private answer: boolean | undefined;
  private asking: Promise<boolean> | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private stopped = false;

  constructor(private readonly options: ApiDiscoveryOptions) {}

  async served(): Promise<boolean> {
    return this.answer ?? this.ask();
  }

  /** Asks no more; for the controller's shutdown. */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  private ask(): Promise<boolean> {
    this.asking ??= this.discover()
      .then((served) => {
        const before = this.answer;
        this.answer = served;
        if (before !== undefined && before !== served) this.options.onChange?.();
        return served;
      })
      .finally(() => {
        this.asking = undefined;
        // A first question that failed is the caller's to retry; a later one keeps the last answer until the next.
        if (this.answer !== undefined) this.askAgainLater();
      });
    return this.asking;
  }

  private askAgainLater(): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.ask().catch(() => undefined);
    }, this.options.ttlMs);
    this.timer.unref();
  }

  private async discover(): Promise<boolean> {
    const { group, version } = this.options.resources[0];
    // Ask the group list first: the apiserver answers an unknown group's path with a plain-text 404.
    const groups = groupListSchema.parse(await this.options.client.request('GET', '/apis'));
    const served = groups.groups.some((entry) => entry.name === group && entry.versions.some((v) => v.groupVersion === `${group}/${version}`));
    if (!served) return false;
    try {
      const list = resourceListSchema.parse(await this.options.client.request('GET', `/apis/${group}/${version}`));
      const names = new Set(list.resources.map((resource) => resource.name));
      return this.options.resources.every((resource) => names.has(resource.plural));
    } catch (error) {
      if (isApiError(error, 404)) return false;
      throw error;
    }
  }
}
