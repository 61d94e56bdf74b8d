// Key pairs for the CA and the member certificate, and their PEM forms. WebCrypto keys, because @peculiar/x509 signs
// with them; Node's KeyObject exports them as PKCS#8, the PEM form ZooKeeper's key store reads.
import { createPrivateKey, KeyObject, webcrypto } from 'node:crypto';

/** ECDSA P-256 with SHA-256: small, fast to generate, and read by Java's key stores, OpenSSL and Node. */
export const GENERATED_KEY_ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;

/** A signing algorithm as WebCrypto and @peculiar/x509 take it. */
export type SigningAlgorithm = { name: 'ECDSA'; namedCurve: string; hash: string } | { name: 'RSASSA-PKCS1-v1_5'; hash: string };

export interface KeyPair {
  readonly algorithm: SigningAlgorithm;
  readonly publicKey: webcrypto.CryptoKey;
  readonly privateKey: webcrypto.CryptoKey;
}

export async function generateKeyPair(): Promise<KeyPair> {
  const pair = await webcrypto.subtle.generateKey(GENERATED_KEY_ALGORITHM, true, ['sign', 'verify']);
  return { algorithm: GENERATED_KEY_ALGORITHM, publicKey: pair.publicKey, privateKey: pair.privateKey };
}

/** The unencrypted PKCS#8 PEM (`BEGIN PRIVATE KEY`) of a private key. */
export function privateKeyPem(key: webcrypto.CryptoKey): string {
  return String(KeyObject.from(key).export({ type: 'pkcs8', format: 'pem' }));
}

export class UnsupportedKeyError extends Error {
  override readonly name = 'UnsupportedKeyError';
}

const EC_CURVES: Record<string, string> = { prime256v1: 'P-256', secp384r1: 'P-384', secp521r1: 'P-521' };

/** The signing algorithm for a private key read from PEM: RSA or ECDSA on a NIST curve. Throws UnsupportedKeyError. */
function signingAlgorithmOf(key: KeyObject): SigningAlgorithm {
  if (key.asymmetricKeyType === 'rsa') return { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' };
  const curve = EC_CURVES[key.asymmetricKeyDetails?.namedCurve ?? ''];
  if (key.asymmetricKeyType === 'ec' && curve !== undefined) return { name: 'ECDSA', namedCurve: curve, hash: curve === 'P-256' ? 'SHA-256' : 'SHA-384' };
  throw new UnsupportedKeyError(`expected an RSA or ECDSA (P-256, P-384, P-521) key, got ${key.asymmetricKeyType ?? 'an unknown type'}`);
}

/** A private key from PEM (PKCS#1, SEC1 or PKCS#8), as a WebCrypto signing key. Throws on unreadable or unsupported keys. */
export async function importPrivateKey(pem: string): Promise<{ algorithm: SigningAlgorithm; privateKey: webcrypto.CryptoKey; keyObject: KeyObject }> {
  const keyObject = createPrivateKey(pem);
  const algorithm = signingAlgorithmOf(keyObject);
  const der = keyObject.export({ type: 'pkcs8', format: 'der' });
  const importAlgorithm = algorithm.name === 'ECDSA' ? { name: 'ECDSA', namedCurve: algorithm.namedCurve } : algorithm;
  const privateKey = await webcrypto.subtle.importKey('pkcs8', der, importAlgorithm, false, ['sign']);
  return { algorithm, privateKey, keyObject };
}
