// Copies images between OCI layouts and a registry with skopeo: the built images pushed as <registry>/<name>:<version>
// (the tag deploy/ names), an image pulled back by its reference. A registry on a loopback address is reached over
// plain HTTP, as Docker reaches one: nothing off this machine can listen there, so TLS would protect nothing, and the
// bed's registry (test/src/bed/registry.ts) serves none.
import { commandOutput } from './command.js';
import type { BuiltImage } from './build-images.js';

/** `registry/name:tag` for an image whose reference is `anything/name:tag`. */
export function pushedReference(registry: string, image: Pick<BuiltImage, 'reference'>): string {
  const nameAndTag = image.reference.slice(image.reference.lastIndexOf('/') + 1);
  return `${registry.replace(/\/+$/, '')}/${nameAndTag}`;
}

/** Whether a registry or an image reference (host[:port]/...) names this machine's loopback: 127.0.0.0/8, localhost, [::1]. */
export function isLoopbackRegistry(registryOrReference: string): boolean {
  const host = registryOrReference.split('/')[0] ?? '';
  const name = host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : (host.split(':')[0] ?? '');
  return name === 'localhost' || name === '[::1]' || /^127(\.\d{1,3}){3}$/.test(name);
}

/** skopeo's flag that lets it reach a loopback registry over plain HTTP: `--tls-verify`, or on copy the side's (`src`, `dest`). */
function plainHttpArgs(side: 'src' | 'dest' | 'inspect', registryOrReference: string): string[] {
  if (!isLoopbackRegistry(registryOrReference)) return [];
  return [side === 'inspect' ? '--tls-verify=false' : `--${side}-tls-verify=false`];
}

export async function pushImages(images: readonly BuiltImage[], registry: string, progress: (line: string) => void): Promise<void> {
  for (const image of images) {
    const started = Date.now();
    const target = pushedReference(registry, image);
    await pushImage(image.layout, image.name, target);
    progress(`${image.name}: pushed to ${target} in ${String(Math.round((Date.now() - started) / 1000))} s`);
  }
}

/** Pushes the image tagged `tag` in the OCI layout as `target`; blobs the registry has already are not sent again. */
export async function pushImage(layout: string, tag: string, target: string): Promise<void> {
  await commandOutput('skopeo', ['copy', '--quiet', ...plainHttpArgs('dest', target), `oci:${layout}:${tag}`, `docker://${target}`]);
}

/** The digest of the manifest `reference` names in its registry, asked of the registry (no layer is fetched). */
export async function manifestDigest(reference: string): Promise<string> {
  const digest = await commandOutput('skopeo', ['inspect', '--no-tags', '--format', '{{.Digest}}', ...plainHttpArgs('inspect', reference), `docker://${reference}`]);
  return digest.trim();
}

/** Pulls `reference` into the OCI layout `layout` (made if absent), tagged `tag` there. */
export async function pullImage(reference: string, layout: string, tag: string): Promise<void> {
  await commandOutput('skopeo', ['copy', '--quiet', ...plainHttpArgs('src', reference), `docker://${reference}`, `oci:${layout}:${tag}`]);
}
