// The clusters the console serves, one per kubeconfig context, and a client for each that acts as the caller: the
// context gives the API server and its CA, the caller's bearer token gives the identity (the context's own user is
// never used, so the console holds no privilege of its own).
import type { Cluster } from '@kubernetes/client-node';
import { KubeClient, PooledKubeConfig } from '@zk-oam/runtime';

export interface ConsoleCluster {
  /** The kubeconfig context's name: how every API path names the cluster. */
  readonly name: string;
  /** The context's namespace: where a caller who may not list every namespace is looked for. */
  readonly namespace: string;
  readonly server: string;
}

interface Entry {
  readonly view: ConsoleCluster;
  readonly cluster: Cluster;
}

export class ClusterDirectory {
  private readonly entries = new Map<string, Entry>();

  /** Every context of `kubeConfig`, or only those named in `contexts` (in that order). */
  constructor(kubeConfig: PooledKubeConfig, contexts?: readonly string[]) {
    const all = kubeConfig.getContexts();
    const chosen = contexts === undefined ? all : contexts.map((name) => all.find((context) => context.name === name) ?? missing(name));
    for (const context of chosen) {
      const cluster = kubeConfig.getCluster(context.cluster);
      if (cluster === null) throw new Error(`kubeconfig context ${context.name} names cluster ${context.cluster}, which it does not define`);
      const view = { name: context.name, namespace: context.namespace ?? 'default', server: cluster.server };
      this.entries.set(context.name, { view, cluster });
    }
  }

  list(): ConsoleCluster[] {
    return [...this.entries.values()].map((entry) => entry.view);
  }

  find(name: string): ConsoleCluster | undefined {
    return this.entries.get(name)?.view;
  }

  /** A client of cluster `name` authenticated with the caller's bearer token alone. */
  clientFor(name: string, token: string): KubeClient {
    const entry = this.entries.get(name);
    if (entry === undefined) throw new Error(`no cluster ${name}`);
    const kubeConfig = new PooledKubeConfig();
    kubeConfig.loadFromOptions({
      clusters: [entry.cluster],
      users: [{ name: 'caller', token }],
      contexts: [{ name: 'caller', cluster: entry.cluster.name, user: 'caller', namespace: entry.view.namespace }],
      currentContext: 'caller',
    });
    return new KubeClient(kubeConfig);
  }
}

function missing(name: string): never {
  throw new Error(`CONSOLE_CONTEXTS names context ${name}, which the kubeconfig does not have`);
}
