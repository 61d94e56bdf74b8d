// Live updates of one ensemble as Server-Sent Events: a `snapshot` of its current view, then one event per change
// of its ZookeeperWorkload (`ADDED`, `MODIFIED`, `DELETED`) from a Kubernetes watch made as the caller. The stream
// ends when the workload is deleted, the watch ends or the console stops; EventSource reconnects by itself and gets a
// new snapshot.
import { collectionPath } from '@zk-oam/runtime';
import { getWorkload, parseWorkload } from '../kube/ensembles.js';
import { workloads } from '../kube/resources.js';
import { SSE_HEADERS, SSE_KEEPALIVE, sseFrame } from '../http/sse.js';
import { ensembleDetail } from '../views/ensemble.js';
import { param, targetOf, type RequestContext } from './context.js';

export const KEEPALIVE_MS = 15_000;

export async function streamEnsemble(context: RequestContext): Promise<undefined> {
  const { cluster, client } = targetOf(context);
  const namespace = param(context, 'namespace');
  const name = param(context, 'name');
  // Read first, as the caller: a missing ensemble or a refusal is an ordinary JSON error, before the stream starts.
  const workload = await getWorkload(client, namespace, name);
  const view = (object: unknown) => ensembleDetail(cluster.name, parseWorkload(object), [], []);
  const { response, log } = context;
  response.writeHead(200, SSE_HEADERS);
  response.write(sseFrame('snapshot', ensembleDetail(cluster.name, workload, [], []), workload.metadata.resourceVersion));
  const keepalive = setInterval(() => response.write(SSE_KEEPALIVE), KEEPALIVE_MS);
  let ended = false;
  const end = () => {
    ended = true;
    clearInterval(keepalive);
    response.end();
  };
  // The response closes when the caller goes away (or after end()): the watch goes with it. The console stopping ends it.
  let watch: AbortController | undefined;
  context.shutdown.addEventListener('abort', end, { once: true });
  response.once('close', () => {
    context.shutdown.removeEventListener('abort', end);
    end();
    watch?.abort();
  });
  const onEvent = (type: string, object: unknown) => {
    if (type === 'ERROR') {
      response.write(sseFrame('error', object));
      end();
      return;
    }
    const current = view(object);
    response.write(sseFrame(type, current, current.resourceVersion));
    if (type === 'DELETED') end();
  };
  const onDone = (error: unknown) => {
    // The caller leaving aborts the watch: only an end the console did not cause is worth a line.
    if (!ended && error !== null && error !== undefined) log.warn({ err: error, namespace, name }, 'the watch behind a stream ended');
    end();
  };
  const query = { fieldSelector: `metadata.name=${name}`, resourceVersion: workload.metadata.resourceVersion };
  watch = await client.watch(collectionPath(workloads, namespace), query, onEvent, onDone);
  if (ended || context.shutdown.aborted) {
    end();
    watch.abort();
  }
  return undefined;
}
