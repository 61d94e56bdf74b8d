// Live updates of a cluster's ensembles as Server-Sent Events, from a watch of the ZookeeperWorkloads made as the
// caller, over the namespaces the list covers (`?namespace=`, else every namespace, else the context's): `ADDED` for
// each ensemble there, then `ADDED`, `MODIFIED` and `DELETED` as they change, each with the ensemble's state (its
// traits are in the list, not in the stream). With NATS, the controllers' new facts about the ensembles of those
// namespaces come as `fact` frames too. It ends when its watch fails or the console stops.
import { collectionPath } from '@zk-oam/runtime';
import { parseWorkload } from '../kube/ensembles.js';
import { keepWatching } from '../kube/keep-watching.js';
import { workloads } from '../kube/resources.js';
import { describeEnd, openEventStream } from '../http/event-stream.js';
import { ensembleState } from '../views/ensemble.js';
import { targetOf, type RequestContext } from './context.js';
import { clusterFacts, streamFacts } from './facts.js';
import { scopeOf } from './read.js';

export async function streamCluster(context: RequestContext): Promise<undefined> {
  const { cluster, client } = targetOf(context);
  // Decided before the stream starts, as the caller: a refusal is an ordinary JSON error.
  const namespace = await scopeOf(client, context.query.get('namespace'), cluster.namespace);
  await client.request('GET', collectionPath(workloads, namespace), { query: { limit: 1 } });
  const stream = openEventStream(context.response, context.shutdown);
  stream.send('scope', { cluster: cluster.name, namespaces: namespace === undefined ? 'all' : [namespace] });
  const onEvent = (type: string, object: unknown) => stream.send(type, ensembleState(cluster.name, parseWorkload(object)));
  const onEnd = (error: unknown) => {
    context.log.warn({ err: error, cluster: cluster.name, namespace }, 'the watch behind a cluster stream ended');
    stream.send('error', { source: 'workloads', detail: describeEnd(error) });
    stream.end();
  };
  stream.stopWith(keepWatching(client, collectionPath(workloads, namespace), {}, { onEvent, onEnd }));
  streamFacts(context.facts, stream, clusterFacts(namespace), context.log);
  return undefined;
}
