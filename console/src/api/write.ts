// Create, update, patch and delete of a ZookeeperWorkload. The body is validated with the CRD's zod schema (400
// naming the field); what the caller wrote is sent as written, with strict field validation, so the API server
// refuses unknown fields (which zod would drop silently) and applies the CRD's defaults itself.
import { ZOOKEEPER_WORKLOAD } from '@zk-oam/apis';
import { collectionPath, objectPath } from '@zk-oam/runtime';
import { z } from 'zod';
import { parseWorkload } from '../kube/ensembles.js';
import { workloads } from '../kube/resources.js';
import { ensembleSummary } from '../views/ensemble.js';
import { mergePatch } from './merge-patch.js';
import { createRequestSchema, patchRequestSchema, updateRequestSchema, validated } from './requests.js';
import { ok, param, targetOf, type JsonAnswer, type RequestContext, type Target } from './context.js';

const STRICT = { fieldValidation: 'Strict' } as const;

/** The spec as written, once the body's validation passed. */
const writtenSchema = z.looseObject({ spec: z.unknown() });

export async function createEnsemble(context: RequestContext): Promise<JsonAnswer> {
  const { cluster, client } = targetOf(context);
  const namespace = param(context, 'namespace');
  const body = await context.readBody();
  const { metadata } = validated(createRequestSchema, body);
  const written = writtenSchema.parse(body);
  const object = {
    apiVersion: ZOOKEEPER_WORKLOAD.apiVersion,
    kind: ZOOKEEPER_WORKLOAD.kind,
    metadata: { name: metadata.name, namespace, labels: metadata.labels, annotations: metadata.annotations },
    spec: written.spec,
  };
  const created = await client.request('POST', collectionPath(workloads, namespace), { body: object, query: STRICT });
  return ok(ensembleSummary(cluster.name, parseWorkload(created), []), 201);
}

/** The object as stored (metadata kept whole: owner references, finalizers), with what an update changes. */
const storedSchema = z.looseObject({
  metadata: z.looseObject({
    resourceVersion: z.string().optional(),
    labels: z.record(z.string(), z.string()).optional(),
    annotations: z.record(z.string(), z.string()).optional(),
  }),
  spec: z.unknown(),
});

async function stored(context: RequestContext, target: Target) {
  const key = { namespace: param(context, 'namespace'), name: param(context, 'name') };
  return storedSchema.parse(await target.client.request('GET', objectPath(workloads, key)));
}

/** Replaces the spec (and the labels and annotations, when given) of the current object, at its resourceVersion. */
async function replace(context: RequestContext, target: Target, body: unknown, current: z.infer<typeof storedSchema>): Promise<JsonAnswer> {
  const { metadata } = validated(updateRequestSchema, body);
  const written = writtenSchema.parse(body);
  const object = {
    ...current,
    metadata: {
      ...current.metadata,
      resourceVersion: metadata?.resourceVersion ?? current.metadata.resourceVersion,
      ...(metadata?.labels === undefined ? {} : { labels: metadata.labels }),
      ...(metadata?.annotations === undefined ? {} : { annotations: metadata.annotations }),
    },
    spec: written.spec,
  };
  const key = { namespace: param(context, 'namespace'), name: param(context, 'name') };
  const updated = await target.client.request('PUT', objectPath(workloads, key), { body: object, query: STRICT });
  return ok(ensembleSummary(target.cluster.name, parseWorkload(updated), []));
}

export async function updateEnsemble(context: RequestContext): Promise<JsonAnswer> {
  const body = await context.readBody();
  const target = targetOf(context);
  return replace(context, target, body, await stored(context, target));
}

/** Merges the patch into the current labels, annotations and spec, then replaces: the merged spec is what is validated. */
export async function patchEnsemble(context: RequestContext): Promise<JsonAnswer> {
  const patch = validated(patchRequestSchema, await context.readBody());
  const target = targetOf(context);
  const current = await stored(context, target);
  const { labels, annotations } = current.metadata;
  const merged = mergePatch({ metadata: { labels, annotations }, spec: current.spec }, patch);
  return replace(context, target, merged, current);
}

export async function deleteEnsemble(context: RequestContext): Promise<JsonAnswer> {
  const { cluster, client } = targetOf(context);
  const key = { namespace: param(context, 'namespace'), name: param(context, 'name') };
  await client.request('DELETE', objectPath(workloads, key));
  return ok({ cluster: cluster.name, ...key, deleted: true }, 202);
}
