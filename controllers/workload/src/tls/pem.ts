// PEM bundles: ca.crt holds two CAs while the CA rotates, and cert-manager writes a chain into tls.crt.
import { createHash } from 'node:crypto';

/** The certificates of a PEM bundle, in order (leaf first in a chain). */
export function pemBlocks(pem: string): string[] {
  return pem.split(/(?<=-----END CERTIFICATE-----)/).filter((block) => block.includes('-----BEGIN CERTIFICATE-----'));
}

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
