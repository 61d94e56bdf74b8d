// Whether the member certificate in the Secret can stay, and until when: the decision is pure (Secret data, CA, names
// and the time in; a verdict out), so every reason to issue again is unit-tested.
import type { X509Certificate } from 'node:crypto';
import { kubernetesTime, TLS_SECRET_KEYS } from '@zk-oam/apis';
import { dnsNamesOf, keyMatches, parsed } from './pem.js';

/** Why a certificate is issued; on `otherCa` the reconcile rotates to the new CA instead (ca-rotation.ts). */
export type IssueCause = 'missing' | 'unreadable' | 'key' | 'otherCa' | 'names' | 'renewal';

export type CertificateVerdict =
  | { readonly action: 'keep'; readonly renewAt: Date; readonly notAfter: Date; readonly fingerprint: string }
  | { readonly action: 'issue'; readonly cause: IssueCause; readonly reason: string };

/** Without spec.tls.certificates.renewBeforeMinutes, a certificate is issued again once a third of its lifetime is left, as cert-manager does by default. */
const RENEW_AT_FRACTION = 2 / 3;

/**
 * When the certificate is issued again: `renewBeforeMinutes` before it expires, or at two thirds of its lifetime. Read
 * from the certificate itself, not from validityHours, so that a change of renewBeforeMinutes moves the renewal of the
 * certificate in use while a change of validityHours waits for the next one.
 */
export function renewalTime(certificate: X509Certificate, renewBeforeMinutes: number | undefined): Date {
  const from = new Date(certificate.validFrom).getTime();
  const to = new Date(certificate.validTo).getTime();
  if (renewBeforeMinutes !== undefined) return new Date(to - renewBeforeMinutes * 60_000);
  return new Date(from + (to - from) * RENEW_AT_FRACTION);
}

export interface VerdictInput {
  /** The member Secret's data, decoded; undefined when there is no Secret. */
  readonly data: Readonly<Record<string, string>> | undefined;
  readonly caPem: string;
  readonly dnsNames: readonly string[];
  /** spec.tls.certificates.renewBeforeMinutes; undefined for the default, a third of the lifetime. */
  readonly renewBeforeMinutes: number | undefined;
  readonly now: Date;
}

export function certificateVerdict({ data, caPem, dnsNames, renewBeforeMinutes, now }: VerdictInput): CertificateVerdict {
  if (data === undefined) return { action: 'issue', cause: 'missing', reason: 'no certificate yet' };
  const certificate = parsed(data[TLS_SECRET_KEYS.certificate]);
  const ca = parsed(caPem);
  if (certificate === undefined || ca === undefined) return { action: 'issue', cause: 'unreadable', reason: 'the certificate does not parse' };
  if (!keyMatches(certificate, data[TLS_SECRET_KEYS.privateKey])) {
    return { action: 'issue', cause: 'key', reason: 'the private key is missing or does not match the certificate' };
  }
  if (data[TLS_SECRET_KEYS.ca] !== caPem || !certificate.checkIssued(ca) || !certificate.verify(ca.publicKey)) {
    return { action: 'issue', cause: 'otherCa', reason: 'the certificate was not issued by the current CA' };
  }
  if (dnsNamesOf(certificate).join(',') !== dnsNames.join(',')) return { action: 'issue', cause: 'names', reason: 'the names the members need changed' };
  const renewAt = renewalTime(certificate, renewBeforeMinutes);
  if (now.getTime() >= renewAt.getTime()) return { action: 'issue', cause: 'renewal', reason: `renewal due since ${kubernetesTime(renewAt)}` };
  return { action: 'keep', renewAt, notAfter: new Date(certificate.validTo), fingerprint: certificate.fingerprint256 };
}
