// A CustomResourceDefinition of any object of one kind (no schema), for tests of the runtime against a custom kind of
// their own: created, then waited for until its collection answers.
import { collectionPath, resourceName, type KubeClient, type ResourceType } from '@zk-oam/runtime';
import { waitFor } from './wait-for.js';

export function crdPath(resource: ResourceType): string {
  return `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${resourceName(resource)}`;
}

/** Creates the CRD of `resource` (namespaced, one version) and resolves once `namespace`'s collection of it is served. */
export async function createSchemalessCrd(client: KubeClient, resource: ResourceType, namespace: string, options: { statusSubresource?: boolean } = {}): Promise<void> {
  await client.request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
    body: {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: resourceName(resource) },
      spec: {
        group: resource.group,
        scope: 'Namespaced',
        names: { plural: resource.plural, singular: resource.kind.toLowerCase(), kind: resource.kind },
        versions: [
          {
            name: resource.version,
            served: true,
            storage: true,
            ...(options.statusSubresource === true ? { subresources: { status: {} } } : {}),
            schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
          },
        ],
      },
    },
  });
  await waitFor(
    `the ${resource.kind} CRD to be served`,
    () => client.request('GET', collectionPath(resource, namespace)).then(() => true, () => false),
    Boolean,
    60_000,
    200,
  );
}
