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
  /** How long an answer is trusted; the CRDs may be installed or removed at any time. */
  readonly ttlMs: number;
  readonly now?: () => number;
}

/**
 * A cache of one discovery answer. The first call asks the apiserver; later calls are answered at once from the last
 * answer, and one older than the TTL is asked again in the background for the calls after it. A reconcile so never
 * waits on discovery once an answer is known: it was a round trip before the StatefulSet of a new workload, each minute.
 * Calls while a question is out share it.
 */
export class ApiDiscovery {
  private answer: { readonly served: boolean; readonly at: number } | undefined;
  private asking: Promise<boolean> | undefined;
  private readonly now: () => number;

  constructor(private readonly options: ApiDiscoveryOptions) {
    this.now = options.now ?? Date.now;
  }

  async served(): Promise<boolean> {
    const answer = this.answer;
    if (answer === undefined) return this.ask();
    // A failed question keeps the last answer, and the next call asks again; a first question's failure is the caller's.
    if (this.now() - answer.at >= this.options.ttlMs) this.ask().catch(() => undefined);
    return answer.served;
  }

  private ask(): Promise<boolean> {
    const at = this.now();
    this.asking ??= this.discover()
      .then((served) => {
        this.answer = { served, at };
        return served;
      })
      .finally(() => {
        this.asking = undefined;
      });
    return this.asking;
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
