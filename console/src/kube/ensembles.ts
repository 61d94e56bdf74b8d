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
import { traitsByWorkload, type TraitDetail } from '../views/traits.js';
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

/** The field selector of the Events about the workload `name`. */
export function eventsSelector(name: string): string {
  return `involvedObject.kind=${workloads.kind},involvedObject.name=${name}`;
}

/** The recent Events about the workload `namespace/name`. */
export async function eventsAbout(client: KubeClient, namespace: string, name: string): Promise<EventView[]> {
  return recentEvents(await listObjects(client, events, coreEventSchema, namespace, { fieldSelector: eventsSelector(name) }));
}
