// The client CA Secret (spec.authentication.x509.clientCaSecretRef) checked the way ZooKeeper will read its ca.crt, or
// the first problem that makes it unusable. Pure. Problems name the key, a certificate's position and subject, never
// key material.
import { createHash } from 'node:crypto';
import { CLIENT_CA_SECRET_KEYS } from '@zk-oam/apis';
import { parsed, pemBlocks } from '../pem.js';

export type ClientCaReading = { readonly ok: true; readonly digest: string } | { readonly ok: false; readonly problem: string };

const PRIVATE_KEY = /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----/;

/**
 * Reads a Secret's data (base64 values by key). ZooKeeper 3.8's PEM trust store (PemReader.loadTrustStore) loads every
 * certificate of the file, under its subject name as alias: of two certificates with one subject only the last would
 * be trusted, so that is refused rather than half-kept. `digest` is the SHA-256 of ca.crt as the members mount it.
 */
export function readClientCa(encodedData: Readonly<Record<string, string>>): ClientCaReading {
  const key = CLIENT_CA_SECRET_KEYS.ca;
  const encoded = encodedData[key];
  if (encoded === undefined) return { ok: false, problem: `has no key ${key}: put there the PEM certificate(s) of the CA that signs client certificates` };
  const bytes = Buffer.from(encoded, 'base64');
  const pem = bytes.toString('utf8');
  if (PRIVATE_KEY.test(pem)) return { ok: false, problem: `holds a private key in ${key}: the members need the CA's certificate only, keep its key elsewhere` };
  const problem = certificatesProblem(pemBlocks(pem), key);
  if (problem !== undefined) return { ok: false, problem };
  return { ok: true, digest: createHash('sha256').update(bytes).digest('hex') };
}

function certificatesProblem(blocks: readonly string[], key: string): string | undefined {
  if (blocks.length === 0) return `has no PEM certificate in ${key}`;
  const subjects = new Set<string>();
  for (const [index, block] of blocks.entries()) {
    const certificate = parsed(block);
    const position = `certificate ${String(index + 1)} of ${String(blocks.length)}`;
    if (certificate === undefined) return `holds in ${key} a certificate that does not parse (${position})`;
    const subject = certificate.subject.split('\n').join(', ');
    if (subjects.has(subject)) {
      return `holds in ${key} two certificates with the subject "${subject}" (${position}): ZooKeeper's PEM trust store would keep only the last`;
    }
    subjects.add(subject);
  }
  return undefined;
}
