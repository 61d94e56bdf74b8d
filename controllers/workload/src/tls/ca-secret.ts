// The CA that signs the member certificate, read from its Secret and checked: every problem a person can fix is named.
import { X509Certificate } from 'node:crypto';
import { CA_SECRET_KEYS } from '@zk-oam/apis';
import type { SigningCa } from './issue.js';
import { importPrivateKey, UnsupportedKeyError } from './keys.js';
import { renewalTime } from './renewal.js';

export type CaReading = { readonly ok: true; readonly ca: SigningCa } | { readonly ok: false; readonly problem: string };

function problem(text: string): CaReading {
  return { ok: false, problem: text };
}

/** Checks a CA Secret's data (decoded): both keys, a CA certificate valid now, and the key that belongs to it. */
export async function readCa(data: Readonly<Record<string, string>>, now: Date): Promise<CaReading> {
  const { certificate: certificateKey, privateKey: privateKeyKey } = CA_SECRET_KEYS;
  const missing = [certificateKey, privateKeyKey].filter((key) => data[key] === undefined || data[key] === '');
  if (missing.length > 0) return problem(`lacks the key(s) ${missing.join(', ')}`);
  const certificatePem = data[certificateKey] ?? '';
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(certificatePem);
  } catch {
    return problem(`has no PEM certificate in ${certificateKey}`);
  }
  if (!certificate.ca) return problem(`holds in ${certificateKey} a certificate that is not a CA (basicConstraints CA:TRUE)`);
  if (now.getTime() < new Date(certificate.validFrom).getTime() || now.getTime() >= new Date(certificate.validTo).getTime()) {
    return problem(`holds in ${certificateKey} a CA certificate valid only from ${certificate.validFrom} to ${certificate.validTo}`);
  }
  try {
    const key = await importPrivateKey(data[privateKeyKey] ?? '');
    if (!certificate.checkPrivateKey(key.keyObject)) return problem(`holds in ${privateKeyKey} a key that does not belong to the certificate in ${certificateKey}`);
    return { ok: true, ca: { certificatePem: certificate.toString(), privateKey: key.privateKey, algorithm: key.algorithm } };
  } catch (error) {
    if (error instanceof UnsupportedKeyError) return problem(`holds in ${privateKeyKey} ${error.message.replace(/^expected/, 'a key of another type: expected')}`);
    return problem(`has no readable unencrypted PEM private key in ${privateKeyKey}`);
  }
}

/** When the controller makes its own CA anew: once two thirds of its life are gone, as for a member certificate. */
export function ownCaRenewalTime(ca: SigningCa): Date {
  return renewalTime(new X509Certificate(ca.certificatePem), undefined);
}
