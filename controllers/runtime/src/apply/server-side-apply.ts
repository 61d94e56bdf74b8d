// Server-side apply of whole objects and of the status subresource, one field manager per controller.
import { PatchStrategy } from '@kubernetes/client-node';
import type { KubeClient } from '../kube/client.js';
import { apiVersionOf, objectPath, type ResourceType } from '../kube/resource.js';
import type { ObjectKey } from '../kube/object.js';

export interface ApplyOptions {
  /** The controller's name: the owner of the fields it sets. */
  readonly fieldManager: string;
  /** Take over fields another manager owns instead of failing with 409. Default true (controllers own their fields). */
  readonly force?: boolean;
}

/** The fields this controller wants set; anything it no longer lists is removed if it was the only owner. */
export interface ApplyConfiguration {
  readonly metadata: { readonly name: string; readonly namespace?: string; readonly [field: string]: unknown };
  readonly [field: string]: unknown;
}

function patch(
  client: Pick<KubeClient, 'request'>,
  resource: ResourceType,
  key: ObjectKey,
  body: ApplyConfiguration,
  options: ApplyOptions,
  subresource?: string,
): Promise<unknown> {
  return client.request('PATCH', objectPath(resource, key, subresource), {
    body: { apiVersion: apiVersionOf(resource), kind: resource.kind, ...body },
    contentType: PatchStrategy.ServerSideApply,
    query: { fieldManager: options.fieldManager, force: options.force ?? true },
  });
}

/** Applies `configuration` and returns the object as stored. */
export function applyObject(
  client: Pick<KubeClient, 'request'>,
  resource: ResourceType,
  configuration: ApplyConfiguration,
  options: ApplyOptions,
): Promise<unknown> {
  const key = { namespace: configuration.metadata.namespace ?? '', name: configuration.metadata.name };
  return patch(client, resource, key, configuration, options);
}

export interface StatusApplyOptions extends ApplyOptions {
  /**
   * The object's resourceVersion the status was derived from: the apiserver refuses the write with 409 when the object
   * changed since, so a status computed from a stale cache never overwrites a newer one.
   */
  readonly resourceVersion?: string | undefined;
}

/** Applies `status` on the status subresource; only the status fields listed are owned by this manager. */
export function applyStatus(
  client: Pick<KubeClient, 'request'>,
  resource: ResourceType,
  key: ObjectKey,
  status: Readonly<Record<string, unknown>>,
  options: StatusApplyOptions,
): Promise<unknown> {
  const named = key.namespace === '' ? { name: key.name } : { name: key.name, namespace: key.namespace };
  const metadata = options.resourceVersion === undefined ? named : { ...named, resourceVersion: options.resourceVersion };
  return patch(client, resource, key, { metadata, status }, options, 'status');
}
