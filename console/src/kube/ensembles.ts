// Reads of the ZooKeeper kinds and their Events, made with the caller's client.
import {
  parseResource,
  zookeeperRollingSchema,
  zookeeperScaleSchema,
  zookeeperWorkloadSchema,
  type ZookeeperWorkload,
} from '@zk-oam/apis';
import { collectionPath, objectPath, resourceName, type KubeClient, type ResourceType } from '@zk-oam/runtime';
import { z } from 'zod';
import { coreEventSchema, recentEvents, type EventView } from '../views/events.js';
import { traitsByWorkload, type TraitDetail, type TraitSummary } from '../views/traits.js';
import { events, rollings, scales, workloads } from './resources.js';

const listSchema = z.object({ items: z.array(z.unknown()) });

/** Every object of `resource` in `namespace` (every namespace when undefined), each parsed by `schema`. */
export async function listObjects<S extends z.ZodType>(
  client: KubeClient,
  resource: ResourceType,
  schema: S,
  namespace?: string,
  query: Record<string, string> = {},
): Promise<z.output<S>[]> {
  const list = listSchema.parse(await client.request('GET', collectionPath(resource, namespace), { query }));
  return list.items.map((item, index) => parseResource(schema, item, `${resourceName(resource)} item ${String(index)}`));
}

export async function getWorkload(client: KubeClient, namespace: string, name: string): Promise<ZookeeperWorkload> {
  const object = await client.request('GET', objectPath(workloads, { namespace, name }));
  return parseResource(zookeeperWorkloadSchema, object, `ZookeeperWorkload ${namespace}/${name}`);
}

export function parseWorkload(object: unknown): ZookeeperWorkload {
  return parseResource(zookeeperWorkloadSchema, object, 'ZookeeperWorkload');
}

/** The traits in `namespace` (every namespace when undefined), keyed by the workload each names. */
export async function traitsIn(client: KubeClient, namespace?: string): Promise<Map<string, TraitDetail[]>> {
  const [scaleTraits, rollingTraits] = await Promise.all([
    listObjects(client, scales, zookeeperScaleSchema, namespace),
    listObjects(client, rollings, zookeeperRollingSchema, namespace),
  ]);
  return traitsByWorkload(scaleTraits, rollingTraits);
}

/** An object Events are about: the workload or one of its traits. */
export interface EventSubject {
  readonly kind: string;
  readonly name?: string;
}

/** The field selector of the Events about `subject` (of every object of its kind when it names none). */
export function eventsSelector(subject: EventSubject): string {
  return `involvedObject.kind=${subject.kind}${subject.name === undefined ? '' : `,involvedObject.name=${subject.name}`}`;
}

/** The recent Events about the workload `namespace/name` and its traits. */
export async function eventsAbout(client: KubeClient, namespace: string, name: string, traits: readonly TraitSummary[]): Promise<EventView[]> {
  const subjects: EventSubject[] = [{ kind: workloads.kind, name }, ...traits];
  const lists = await Promise.all(subjects.map((subject) => listObjects(client, events, coreEventSchema, namespace, { fieldSelector: eventsSelector(subject) })));
  return recentEvents(lists.flat());
}
