// Live updates of one ensemble as Server-Sent Events, from Kubernetes watches made as the caller: a `snapshot` of
// its current view, then one event per change of its ZookeeperWorkload (`ADDED`, `MODIFIED`, `DELETED`), and each
// Kubernetes Event about it or about a trait that names it (`event`: the ones already recorded first, then new ones,
// for a timeline; the rolling trait reports each pod it restarts). The stream
// ends when the workload is deleted, its watch ends or the console stops; EventSource reconnects by itself and gets a
// new snapshot. A caller who may not watch Events still gets the workload's changes (and one `error` saying so). Quiet
// periods do not end it: each watch resumes from the last version it saw. With NATS, the controllers' facts about the
// ensemble come as `fact` frames too (those of the last hour, then new ones), once the caller's own read of the
// workload succeeded: no fact of an ensemble the caller may not read.
import { collectionPath } from '@zk-oam/runtime';
import { eventsSelector, getWorkload, parseWorkload, traitsIn } from '../kube/ensembles.js';
import { keepWatching } from '../kube/keep-watching.js';
import { events, workloads } from '../kube/resources.js';
import { describeEnd, openEventStream } from '../http/event-stream.js';
import { ensembleDetail } from '../views/ensemble.js';
import { workloadKey } from '../views/traits.js';
import { coreEventSchema, eventView } from '../views/events.js';
import { param, targetOf, type RequestContext } from './context.js';
import { ensembleFacts, streamFacts } from './facts.js';
import { BoundTraits, TRAIT_RESOURCES } from './trait-events.js';

export async function streamEnsemble(context: RequestContext): Promise<undefined> {
  const { cluster, client } = targetOf(context);
  const namespace = param(context, 'namespace');
  const name = param(context, 'name');
  // Read first, as the caller: a missing ensemble or a refusal is an ordinary JSON error, before the stream starts.
  const [workload, traits] = await Promise.all([getWorkload(client, namespace, name), traitsIn(client, namespace)]);
  const bound = new BoundTraits(client, namespace, name, traits.get(workloadKey(namespace, name)) ?? []);
  const { log } = context;
  const stream = openEventStream(context.response, context.shutdown);
  stream.send('snapshot', ensembleDetail(cluster.name, workload, [], []), workload.metadata.resourceVersion);

  const onWorkload = (type: string, object: unknown) => {
    const view = ensembleDetail(cluster.name, parseWorkload(object), [], []);
    stream.send(type, view, view.resourceVersion);
    if (type === 'DELETED') stream.end();
  };
  const onWorkloadEnd = (error: unknown) => {
    log.warn({ err: error, namespace, name }, 'the watch behind a stream ended');
    stream.send('error', { source: 'workload', detail: describeEnd(error) });
    stream.end();
  };
  const onEvent = (type: string, object: unknown) => {
    if (type === 'ADDED' || type === 'MODIFIED') stream.send('event', eventView(coreEventSchema.parse(object)));
  };
  const onTraitEvent = (type: string, object: unknown) => {
    if (type !== 'ADDED' && type !== 'MODIFIED') return;
    const view = eventView(coreEventSchema.parse(object));
    const about = view.regarding;
    if (about === undefined) return;
    bound.names(about.kind, about.name).then(
      (names) => names && stream.send('event', view),
      (error: unknown) => log.warn({ err: error, namespace, name }, 'reading a trait behind an Event failed'),
    );
  };
  const onEventsEnd = (error: unknown) => stream.send('error', { source: 'events', detail: describeEnd(error) });

  const workloadWatch = { fieldSelector: `metadata.name=${name}`, resourceVersion: workload.metadata.resourceVersion };
  stream.stopWith(keepWatching(client, collectionPath(workloads, namespace), workloadWatch, { onEvent: onWorkload, onEnd: onWorkloadEnd }));
  const eventsPath = collectionPath(events, namespace);
  stream.stopWith(keepWatching(client, eventsPath, { fieldSelector: eventsSelector({ kind: workloads.kind, name }) }, { onEvent, onEnd: onEventsEnd }));
  for (const trait of TRAIT_RESOURCES) {
    stream.stopWith(keepWatching(client, eventsPath, { fieldSelector: eventsSelector({ kind: trait.kind }) }, { onEvent: onTraitEvent, onEnd: onEventsEnd }));
  }
  streamFacts(context.facts, stream, ensembleFacts(namespace, name, new Date()), log);
  return undefined;
}
