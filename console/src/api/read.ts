// Read endpoints: the clusters, the ensembles of a cluster, one ensemble's info, its members' zxid lags.
import { collectionPath, isApiError, type KubeClient } from '@zk-oam/runtime';
import { zookeeperWorkloadSchema } from '@zk-oam/apis';
import { eventsAbout, getWorkload, listObjects, traitsIn } from '../kube/ensembles.js';
import { workloads } from '../kube/resources.js';
import { ensembleDetail, ensembleSummary } from '../views/ensemble.js';
import { workloadKey } from '../views/traits.js';
import { membersWithLag } from '../views/zxid-lag.js';
import { ok, param, targetOf, type JsonAnswer, type RequestContext } from './context.js';
import { askObservation } from './observation.js';

export function listClusters(context: RequestContext): Promise<JsonAnswer> {
  return Promise.resolve(ok({ clusters: context.directory.list().map(({ name, namespace }) => ({ name, namespace })) }));
}

/**
 * The namespace a cluster-wide view covers: `?namespace=`; else every namespace (undefined) when the caller may list
 * workloads in all of them; else the context's namespace.
 */
export async function scopeOf(client: KubeClient, asked: string | null, fallback: string): Promise<string | undefined> {
  if (asked !== null && asked !== '') return asked;
  try {
    await client.request('GET', collectionPath(workloads), { query: { limit: 1 } });
    return undefined;
  } catch (error) {
    if (!isApiError(error, 403)) throw error;
    return fallback;
  }
}

export async function listEnsembles(context: RequestContext): Promise<JsonAnswer> {
  const { cluster, client } = targetOf(context);
  const namespace = await scopeOf(client, context.query.get('namespace'), cluster.namespace);
  const [found, traits] = await Promise.all([listObjects(client, workloads, zookeeperWorkloadSchema, namespace), traitsIn(client, namespace)]);
  const items = found.map((workload) =>
    ensembleSummary(cluster.name, workload, traits.get(workloadKey(workload.metadata.namespace ?? '', workload.metadata.name)) ?? []),
  );
  return ok({ cluster: cluster.name, namespaces: namespace === undefined ? 'all' : [namespace], items });
}

export async function ensembleInfo(context: RequestContext): Promise<JsonAnswer> {
  const { cluster, client } = targetOf(context);
  const namespace = param(context, 'namespace');
  const name = param(context, 'name');
  const [workload, traits] = await Promise.all([getWorkload(client, namespace, name), traitsIn(client, namespace)]);
  const bound = traits.get(workloadKey(namespace, name)) ?? [];
  // The workload controller is asked only now that the caller's own read of the workload succeeded.
  const [events, answer] = await Promise.all([eventsAbout(client, namespace, name, bound), askObservation(context.facts, workload)]);
  return ok(ensembleDetail(cluster.name, workload, bound, events, membersWithLag(workload, answer)));
}

/** Each member's zxid lag alone, for the page to poll: the caller's read of the workload, then the question. */
export async function ensembleMembers(context: RequestContext): Promise<JsonAnswer> {
  const { client } = targetOf(context);
  const workload = await getWorkload(client, param(context, 'namespace'), param(context, 'name'));
  return ok(membersWithLag(workload, await askObservation(context.facts, workload)));
}
