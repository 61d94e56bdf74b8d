// Which kinds the apiserver serves for an apiVersion, from API discovery (readable by every authenticated user, so no
// RBAC), cached per apiVersion for a while: rendering any workload or trait kind needs its plural and scope.
import { isApiError, type KubeClient, type ResourceType } from '@zk-oam/runtime';
import { z } from 'zod';

const resourceListSchema = z.looseObject({
  resources: z.array(z.looseObject({ name: z.string(), kind: z.string(), namespaced: z.boolean() })),
});

function discoveryPath(apiVersion: string): string {
  return apiVersion.includes('/') ? `/apis/${apiVersion}` : `/api/${apiVersion}`;
}

function groupVersion(apiVersion: string): { group: string; version: string } {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? { group: '', version: apiVersion } : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}

interface Cached {
  readonly at: number;
  readonly resources: readonly ResourceType[];
}

export class KindDiscovery {
  private readonly cache = new Map<string, Cached>();

  constructor(private readonly options: { client: KubeClient; ttlMs: number; now?: () => number }) {}

  /** Every kind served under the given apiVersions; an apiVersion not served contributes none. */
  async resources(apiVersions: Iterable<string>): Promise<ResourceType[]> {
    const lists = await Promise.all([...new Set(apiVersions)].map((apiVersion) => this.served(apiVersion)));
    return lists.flat();
  }

  private async served(apiVersion: string): Promise<readonly ResourceType[]> {
    const now = (this.options.now ?? Date.now)();
    const cached = this.cache.get(apiVersion);
    if (cached !== undefined && now - cached.at < this.options.ttlMs) return cached.resources;
    const resources = await this.fetch(apiVersion);
    this.cache.set(apiVersion, { at: now, resources });
    return resources;
  }

  private async fetch(apiVersion: string): Promise<ResourceType[]> {
    let body: unknown;
    try {
      body = await this.options.client.request('GET', discoveryPath(apiVersion));
    } catch (error) {
      if (isApiError(error, 404)) return [];
      throw error;
    }
    const { group, version } = groupVersion(apiVersion);
    return resourceListSchema
      .parse(body)
      .resources.filter((resource) => !resource.name.includes('/'))
      .map((resource) => ({ group, version, plural: resource.name, kind: resource.kind, namespaced: resource.namespaced }));
  }
}
