// Pushes built images from their OCI layouts to a registry, as <registry>/<name>:<version> (the tag deploy/ names).
import { commandOutput } from './command.js';
import type { BuiltImage } from './build-images.js';

/** `registry/name:tag` for an image whose reference is `anything/name:tag`. */
export function pushedReference(registry: string, image: Pick<BuiltImage, 'reference'>): string {
  const nameAndTag = image.reference.slice(image.reference.lastIndexOf('/') + 1);
  return `${registry.replace(/\/+$/, '')}/${nameAndTag}`;
}

export async function pushImages(images: readonly BuiltImage[], registry: string, progress: (line: string) => void): Promise<void> {
  for (const image of images) {
    const started = Date.now();
    const target = pushedReference(registry, image);
    await commandOutput('skopeo', ['copy', '--quiet', `oci:${image.layout}:${image.name}`, `docker://${target}`]);
    progress(`${image.name}: pushed to ${target} in ${String(Math.round((Date.now() - started) / 1000))} s`);
  }
}
