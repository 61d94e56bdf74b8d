// Scale and restart, through the traits: the ZookeeperScale naming the workload gets the new size, the
// ZookeeperRolling naming it a new restart trigger. A missing trait is created (named after the workload), so the
// safe path (one member at a time; followers first, the leader last) is the only one the console offers.
import { ZOOKEEPER_ROLLING, ZOOKEEPER_SCALE, zookeeperRollingSchema, zookeeperScaleSchema } from '@zk-oam/apis';
import { collectionPath, objectPath, type KubeClient, type ResourceType } from '@zk-oam/runtime';
import type { z } from 'zod';
import { getWorkload, listObjects } from '../kube/ensembles.js';
import { rollings, scales } from '../kube/resources.js';
import { ok, param, targetOf, type JsonAnswer, type RequestContext } from './context.js';
import { restartRequestSchema, scaleRequestSchema, validated } from './requests.js';

interface TraitKind {
  readonly resource: ResourceType;
  readonly apiVersion: string;
  readonly schema: typeof zookeeperScaleSchema | typeof zookeeperRollingSchema;
}

const SCALE: TraitKind = { resource: scales, apiVersion: ZOOKEEPER_SCALE.apiVersion, schema: zookeeperScaleSchema };
const ROLLING: TraitKind = { resource: rollings, apiVersion: ZOOKEEPER_ROLLING.apiVersion, schema: zookeeperRollingSchema };

export interface TraitChange {
  readonly kind: string;
  readonly name: string;
  readonly created: boolean;
}

/**
 * Sets `spec` fields on the trait of `kind` that names the workload, creating the trait when there is none. The
 * workload is read first, so a missing workload is a 404 and not a trait pointing nowhere.
 */
async function changeTrait(client: KubeClient, kind: TraitKind, namespace: string, workload: string, spec: object): Promise<TraitChange> {
  await getWorkload(client, namespace, workload);
  const traits: z.output<TraitKind['schema']>[] = await listObjects(client, kind.resource, kind.schema, namespace);
  const existing = traits.find((trait) => trait.spec.workloadRef.name === workload);
  if (existing !== undefined) {
    const key = { namespace, name: existing.metadata.name };
    await client.request('PATCH', objectPath(kind.resource, key), { body: { spec }, contentType: 'application/merge-patch+json' });
    return { kind: kind.resource.kind, name: existing.metadata.name, created: false };
  }
  const body = {
    apiVersion: kind.apiVersion,
    kind: kind.resource.kind,
    metadata: { name: workload, namespace },
    spec: { workloadRef: { name: workload }, ...spec },
  };
  await client.request('POST', collectionPath(kind.resource, namespace), { body });
  return { kind: kind.resource.kind, name: workload, created: true };
}

export async function scaleEnsemble(context: RequestContext): Promise<JsonAnswer> {
  const { replicas } = validated(scaleRequestSchema, await context.readBody());
  const { cluster, client } = targetOf(context);
  const namespace = param(context, 'namespace');
  const name = param(context, 'name');
  const trait = await changeTrait(client, SCALE, namespace, name, { replicas });
  return ok({ cluster: cluster.name, namespace, name, replicas, trait }, 202);
}

export async function restartEnsemble(context: RequestContext): Promise<JsonAnswer> {
  const { trigger } = validated(restartRequestSchema, await context.readBody());
  const { cluster, client } = targetOf(context);
  const namespace = param(context, 'namespace');
  const name = param(context, 'name');
  const restartTrigger = trigger ?? new Date().toISOString();
  const trait = await changeTrait(client, ROLLING, namespace, name, { restartTrigger });
  return ok({ cluster: cluster.name, namespace, name, restartTrigger, trait }, 202);
}
