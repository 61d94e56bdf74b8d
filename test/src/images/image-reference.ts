// An image reference as a container runtime reads one (distribution's reference grammar, Docker's defaults): the
// registry host, the repository path, and a tag or a digest. The bed's nodes pull every image through one mirror, as a
// containerd node configured with a mirror for each upstream registry does, so a reference keeps its path and changes
// only its host.
const DOCKER_HUB = 'docker.io';

export interface ImageReference {
  /** The registry host (`docker.io` when the reference names none). */
  readonly domain: string;
  /** The repository path in that registry (`library/zookeeper` for Docker Hub's official `zookeeper`). */
  readonly path: string;
  /** `:<tag>` or `@<digest>`: the part that selects the image. */
  readonly selector: string;
}

const digestPattern = /^sha256:[0-9a-f]{64}$/;
const pathPattern = /^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*(?:\/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*$/;
const tagPattern = /^[\w][\w.-]{0,127}$/;

export class InvalidImageReferenceError extends Error {
  constructor(reference: string, reason: string) {
    super(`invalid image reference "${reference}": ${reason}`);
    this.name = 'InvalidImageReferenceError';
  }
}

/** A first component is a registry host when it has a dot or a port, or is `localhost` (Docker's rule). */
function isDomain(component: string): boolean {
  return component.includes('.') || component.includes(':') || component === 'localhost';
}

/** `[host/]path[:tag]` into the registry host (Docker Hub's when none) and the rest. */
function splitDomain(named: string): { domain: string; remainder: string } {
  const slash = named.indexOf('/');
  const first = named.slice(0, Math.max(slash, 0));
  return slash !== -1 && isDomain(first) ? { domain: first, remainder: named.slice(slash + 1) } : { domain: DOCKER_HUB, remainder: named };
}

export function parseImageReference(reference: string): ImageReference {
  const at = reference.indexOf('@');
  const named = at === -1 ? reference : reference.slice(0, at);
  const digest = at === -1 ? undefined : reference.slice(at + 1);
  if (digest !== undefined && !digestPattern.test(digest)) throw new InvalidImageReferenceError(reference, 'the digest is not sha256:<64 hex digits>');
  const { domain, remainder } = splitDomain(named);
  const colon = remainder.lastIndexOf(':');
  const repository = colon === -1 ? remainder : remainder.slice(0, colon);
  const tag = colon === -1 ? undefined : remainder.slice(colon + 1);
  if (!pathPattern.test(repository)) throw new InvalidImageReferenceError(reference, `"${repository}" is not a repository name`);
  if (tag !== undefined && !tagPattern.test(tag)) throw new InvalidImageReferenceError(reference, `"${tag}" is not a tag`);
  const path = domain === DOCKER_HUB && !repository.includes('/') ? `library/${repository}` : repository;
  return { domain, path, selector: digest !== undefined ? `@${digest}` : `:${tag ?? 'latest'}` };
}

/** Where the node pulls `reference` from: the same path and tag or digest on the mirror. */
export function mirroredReference(reference: string, mirror: string): string {
  const { path, selector } = parseImageReference(reference);
  return `${mirror}/${path}${selector}`;
}
