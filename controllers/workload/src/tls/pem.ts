// The member Secret's ca.crt as a bundle: it holds two CAs while the CA rotates (tls/ca-rotation.ts).
import { createHash } from 'node:crypto';
import { pemBlocks } from './renewal.js';

/** Two PEM texts as one bundle, one certificate after the other. */
export function joinedPem(first: string, second: string): string {
  return `${first.trimEnd()}\n${second.trimStart()}`;
}

/**
 * What goes on the pod template for the trusted CAs: their hash while ca.crt holds more than one CA (a rotation), so
 * that a change of trust restarts the members; nothing while it holds one, which keeps the template of every workload
 * that never rotated as it was before rotations existed (no restart on upgrade). The single CA is then the one that
 * issued the member certificate, whose fingerprint is on the template already.
 */
export function trustBundleHash(caPem: string): string | undefined {
  return pemBlocks(caPem).length > 1 ? createHash('sha256').update(caPem).digest('hex') : undefined;
}
