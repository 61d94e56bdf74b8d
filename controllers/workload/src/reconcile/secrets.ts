// Reading Secrets the reconcile depends on: the controller's own from the cache, a user's from the API.
import { coreResources, isApiError, objectPath, type KubeClient } from '@zk-oam/runtime';
import type { ZookeeperWorkload } from '@zk-oam/apis';
import { childMetadata } from '../render/identity.js';
import { z } from 'zod';
import type { WorkloadReconcilerDependencies } from './dependencies.js';

const secretDataSchema = z.looseObject({ data: z.record(z.string(), z.string()).optional() });

type Deps = Pick<WorkloadReconcilerDependencies, 'caches'> & { readonly client: Pick<KubeClient, 'request'> };

/** The Secret from the cache (Secrets this controller labelled), else from the API; undefined when it does not exist. */
export async function readSecret(deps: Deps, namespace: string, name: string): Promise<unknown> {
  return deps.caches.secrets.get({ namespace, name }) ?? (await readLiveSecret(deps, namespace, name));
}

/** The Secret as the API has it now (the cache may lag a write of ours); undefined when it does not exist. */
export async function readLiveSecret(deps: Pick<Deps, 'client'>, namespace: string, name: string): Promise<unknown> {
  try {
    return await deps.client.request('GET', objectPath(coreResources.secret, { namespace, name }));
  } catch (error) {
    if (isApiError(error, 404)) return undefined;
    throw error;
  }
}

/** A Secret's data as stored: base64 values by key (empty when it has none). */
export function encodedData(secret: unknown): Record<string, string> {
  return secretDataSchema.safeParse(secret).data?.data ?? {};
}

/** A Secret's data decoded as UTF-8 text. */
export function decodedData(secret: unknown): Record<string, string> {
  return Object.fromEntries(Object.entries(encodedData(secret)).map(([key, value]) => [key, Buffer.from(value, 'base64').toString('utf8')]));
}

export function encoded(data: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(data).map(([key, value]) => [key, Buffer.from(value, 'utf8').toString('base64')]));
}

/** Name, namespace, labels (the cache sees only labelled Secrets) and the workload as controller owner. */
export function secretMetadata(workload: ZookeeperWorkload, name: string): { name: string; namespace: string; labels?: Record<string, string>; ownerReferences?: unknown[] } {
  const { namespace, labels, ownerReferences } = childMetadata(workload, name);
  return { name, namespace, ...(labels === undefined ? {} : { labels }), ...(ownerReferences === undefined ? {} : { ownerReferences }) };
}
