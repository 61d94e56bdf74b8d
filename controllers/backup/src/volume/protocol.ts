// What the volume server (server.ts) and the controller's client of it (store/volume.ts) agree on: the paths of an
// object store over HTTP, and the bearer token that proves the caller is the controller that started the server (the
// server knows only the token's SHA-256, in its pod's environment, so that whoever reads the pod cannot write).
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export const VOLUME_PATHS = {
  health: '/healthz',
  /** PUT, GET: /objects/<key> (the key URI-encoded as one segment). GET /objects?prefix=<prefix>: the keys, JSON. */
  objects: '/objects',
  /** POST {"keys": [...]}. */
  delete: '/delete',
} as const;

/** The port the server listens on in its pod. */
export const VOLUME_SERVER_PORT = 8080;

export function newVolumeToken(): string {
  return randomBytes(32).toString('base64url');
}

export function tokenDigest(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Whether an Authorization header carries the token whose digest is `digest`. */
export function authorized(header: string | undefined, digest: string): boolean {
  const token = header?.startsWith('Bearer ') === true ? header.slice('Bearer '.length) : undefined;
  if (token === undefined) return false;
  const expected = Buffer.from(digest, 'hex');
  const actual = Buffer.from(tokenDigest(token), 'hex');
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
