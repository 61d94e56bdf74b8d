// Certificates in PEM as the Secrets hold them: split a bundle, parse one, read its names, match its key; and the member
// Secret's ca.crt as a bundle, which holds two CAs while the CA rotates (ca-rotation.ts). Pure.
import { createHash, createPrivateKey, X509Certificate } from 'node:crypto';

/** The certificates of a PEM bundle in order, e.g. tls.crt as cert-manager writes it (leaf, then any intermediates). */
export function pemBlocks(pem: string): string[] {
  return pem.split(/(?<=-----END CERTIFICATE-----)/).filter((block) => block.includes('-----BEGIN CERTIFICATE-----'));
}

/** A certificate from PEM (the first one), or undefined when it does not parse. */
export function parsed(pem: string | undefined): X509Certificate | undefined {
  if (pem === undefined) return undefined;
  try {
    return new X509Certificate(pem);
  } catch {
    return undefined;
  }
}

/** The DNS names of a certificate's subjectAltName, in order. */
export function dnsNamesOf(certificate: X509Certificate): string[] {
  return (certificate.subjectAltName ?? '')
    .split(', ')
    .filter((entry) => entry.startsWith('DNS:'))
    .map((entry) => entry.slice('DNS:'.length));
}

export function keyMatches(certificate: X509Certificate, keyPem: string | undefined): boolean {
  if (keyPem === undefined) return false;
  try {
    return certificate.checkPrivateKey(createPrivateKey(keyPem));
  } catch {
    return false;
  }
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
