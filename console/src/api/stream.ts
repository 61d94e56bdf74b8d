// Live updates of one ensemble as Server-Sent Events, from Kubernetes watches made as the caller: a `snapshot` of
// its current view, then one event per change of its ZookeeperWorkload (`ADDED`, `MODIFIED`, `DELETED`), and each
// Kubernetes Event about it (`event`: the ones already recorded first, then new ones, for a timeline). The stream
// ends when the workload is deleted, its watch ends or the console stops; EventSource reconnects by itself and gets a
// new snapshot. A caller who may not watch Events still gets the workload's changes (and one `error` saying so). Quiet
// periods do not end it: each watch resumes from the last version it saw.
import type { ServerResponse } from 'node:http';
import { collectionPath } from '@zk-oam/runtime';
import { eventsSelector, getWorkload, parseWorkload } from '../kube/ensembles.js';
import { keepWatching } from '../kube/keep-watching.js';
import { events, workloads } from '../kube/resources.js';
import { SSE_HEADERS, SSE_KEEPALIVE, sseFrame } from '../http/sse.js';
import { ensembleDetail } from '../views/ensemble.js';
import { coreEventSchema, eventView } from '../views/events.js';
import { param, targetOf, type RequestContext } from './context.js';

export const KEEPALIVE_MS = 15_000;

/** The open stream: writes frames until it ends, once. */
class EventStream {
  private ended = false;

  constructor(private readonly response: ServerResponse) {}

  get isEnded(): boolean {
    return this.ended;
  }

  send(event: string, data: unknown, id?: string): void {
    if (!this.ended) this.response.write(sseFrame(event, data, id));
  }

  keepalive(): void {
    if (!this.ended) this.response.write(SSE_KEEPALIVE);
  }

  end(): void {
    this.ended = true;
    this.response.end();
  }
}

/** A watch's end for the caller: the API server's Status as it is, or an error's message. */
function describe(error: unknown): unknown {
  return error instanceof Error ? error.message : error;
}

export async function streamEnsemble(context: RequestContext): Promise<undefined> {
  const { cluster, client } = targetOf(context);
  const namespace = param(context, 'namespace');
  const name = param(context, 'name');
  // Read first, as the caller: a missing ensemble or a refusal is an ordinary JSON error, before the stream starts.
  const workload = await getWorkload(client, namespace, name);
  const { response, log, shutdown } = context;
  response.writeHead(200, SSE_HEADERS);
  const stream = new EventStream(response);
  stream.send('snapshot', ensembleDetail(cluster.name, workload, [], []), workload.metadata.resourceVersion);
  const keepalive = setInterval(() => stream.keepalive(), KEEPALIVE_MS);
  const watches: { stop(): void }[] = [];
  const end = () => {
    clearInterval(keepalive);
    stream.end();
    for (const watch of watches) watch.stop();
  };
  // The response closes when the caller goes away (or after end()): the watches go with it.
  shutdown.addEventListener('abort', end, { once: true });
  response.once('close', () => {
    shutdown.removeEventListener('abort', end);
    end();
  });

  const onWorkload = (type: string, object: unknown) => {
    const view = ensembleDetail(cluster.name, parseWorkload(object), [], []);
    stream.send(type, view, view.resourceVersion);
    if (type === 'DELETED') end();
  };
  const onWorkloadEnd = (error: unknown) => {
    log.warn({ err: error, namespace, name }, 'the watch behind a stream ended');
    stream.send('error', { source: 'workload', detail: describe(error) });
    end();
  };
  const onEvent = (type: string, object: unknown) => {
    if (type === 'ADDED' || type === 'MODIFIED') stream.send('event', eventView(coreEventSchema.parse(object)));
  };
  const onEventsEnd = (error: unknown) => stream.send('error', { source: 'events', detail: describe(error) });

  const workloadWatch = { fieldSelector: `metadata.name=${name}`, resourceVersion: workload.metadata.resourceVersion };
  watches.push(keepWatching(client, collectionPath(workloads, namespace), workloadWatch, { onEvent: onWorkload, onEnd: onWorkloadEnd }));
  watches.push(keepWatching(client, collectionPath(events, namespace), { fieldSelector: eventsSelector(name) }, { onEvent, onEnd: onEventsEnd }));
  if (shutdown.aborted) end();
  return undefined;
}
