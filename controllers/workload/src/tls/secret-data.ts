// The data of the TLS Secrets the controller keeps: its own CA (certificate and key), and the member Secret (a fresh key,
// the certificate the CA issues for it, and the CA: cert-manager's layout). Issuance (issue.ts: @peculiar/x509, its
// ASN.1 parsers and reflect-metadata, half a megabyte of bundle) is imported with the first certificate: a controller
// whose workloads issue none, plain or cert-manager's, does not carry it.
import { randomBytes } from 'node:crypto';
import { CA_SECRET_KEYS, TLS_SECRET_KEYS } from '@zk-oam/apis';
import type { SigningCa } from './issue.js';
import { generateKeyPair, privateKeyPem } from './keys.js';

/** 16 random bytes, first bit clear: a positive serial that never repeats in practice. */
export function randomSerialNumber(): string {
  const bytes = randomBytes(16);
  bytes[0] = (bytes[0] ?? 0) & 0x7f;
  return bytes.toString('hex');
}

export interface MemberSecretInput {
  readonly ca: SigningCa;
  readonly commonName: string;
  readonly dnsNames: readonly string[];
  readonly validityHours: number;
  readonly now: Date;
}

/** Backdated a little, so that a member whose clock lags the controller's still accepts it. */
const BACKDATE_MS = 5 * 60_000;

export async function issueMemberSecretData(input: MemberSecretInput): Promise<Record<string, string>> {
  const { issueMemberCertificate } = await import('./issue.js');
  const keys = await generateKeyPair();
  const certificate = await issueMemberCertificate({
    ca: input.ca,
    publicKey: keys.publicKey,
    commonName: input.commonName,
    dnsNames: input.dnsNames,
    serialNumber: randomSerialNumber(),
    notBefore: new Date(input.now.getTime() - BACKDATE_MS),
    notAfter: new Date(input.now.getTime() + input.validityHours * 3_600_000),
  });
  const key = privateKeyPem(keys.privateKey);
  return {
    [TLS_SECRET_KEYS.certificate]: certificate,
    [TLS_SECRET_KEYS.privateKey]: key,
    [TLS_SECRET_KEYS.ca]: input.ca.certificatePem,
  };
}

/** The CA the controller creates outlives many member certificates; it is renewed when two thirds are gone (reconcile/tls.ts). */
export const CA_VALIDITY_HOURS = 10 * 8_760;

export async function issueCaSecretData(input: { commonName: string; now: Date }): Promise<Record<string, string>> {
  const { issueCaCertificate } = await import('./issue.js');
  const keys = await generateKeyPair();
  const certificate = await issueCaCertificate({
    keys,
    commonName: input.commonName,
    serialNumber: randomSerialNumber(),
    notBefore: new Date(input.now.getTime() - BACKDATE_MS),
    notAfter: new Date(input.now.getTime() + CA_VALIDITY_HOURS * 3_600_000),
  });
  return { [CA_SECRET_KEYS.certificate]: certificate, [CA_SECRET_KEYS.privateKey]: privateKeyPem(keys.privateKey) };
}
