// What a release gives kubectl users: deploy/ as one manifest, its images pinned by digest in the release's registry
// (a kustomize overlay's images:, rendered by kubectl kustomize), with the CustomResourceDefinitions first; and the
// CRDs alone, ours and the OAM ones, for a cluster whose platform team installs CRDs on their own.
import { relative } from 'node:path';
import { parseAllDocuments, stringify } from 'yaml';
import { z } from 'zod';
import { SHIPPED_REGISTRY } from '../bed/controller-images.js';

export interface PinnedImage {
  readonly name: string;
  /** sha256:<hex>, the manifest digest the registry serves the image as. */
  readonly digest: string;
}

/** The kustomization, in `overlayDir`, that renders `deployDir` with each image at `<registry>/<name>@<digest>`. */
export function installOverlay(input: { deployDir: string; overlayDir: string; registry: string; images: readonly PinnedImage[] }): Record<string, unknown> {
  return {
    apiVersion: 'kustomize.config.k8s.io/v1beta1',
    kind: 'Kustomization',
    resources: [relative(input.overlayDir, input.deployDir)],
    images: input.images.map((image) => ({ name: `${SHIPPED_REGISTRY}/${image.name}`, newName: `${input.registry}/${image.name}`, digest: image.digest })),
  };
}

const objectSchema = z.looseObject({ kind: z.string() });
const isCrd = (object: z.infer<typeof objectSchema>): boolean => object.kind === 'CustomResourceDefinition';

function objectsOf(manifest: string): z.infer<typeof objectSchema>[] {
  return parseAllDocuments(manifest)
    .map((document): unknown => document.toJS())
    .filter((object) => object !== null)
    .map((object) => objectSchema.parse(object));
}

function joined(objects: readonly unknown[]): string {
  return objects.map((object) => stringify(object)).join('---\n');
}

/** The manifest's objects with its CRDs first, each group in its order. */
export function crdsFirst(manifest: string): string {
  const objects = objectsOf(manifest);
  return joined([...objects.filter(isCrd), ...objects.filter((object) => !isCrd(object))]);
}

/** Only the manifests' CustomResourceDefinitions. */
export function crdsOnly(...manifests: string[]): string {
  return joined(manifests.flatMap(objectsOf).filter(isCrd));
}
