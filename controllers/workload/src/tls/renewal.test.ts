// When the member certificate in the Secret is kept, and every reason it is issued again.
import { kubernetesTime, TLS_SECRET_KEYS } from '@zk-oam/apis';
import { describe, expect, it } from 'vitest';
import { readCa } from './ca-secret.js';
import { memberCertificateNames } from './certificate-names.js';
import type { SigningCa } from './issue.js';
import { certificateVerdict } from './renewal.js';
import { issueCaSecretData, issueMemberSecretData } from './secret-data.js';

const ISSUED = new Date('2026-11-25T12:00:00Z');
const HOUR = 3_600_000;
const names = memberCertificateNames('zk', 'prod');

async function ca(): Promise<SigningCa> {
  const reading = await readCa(await issueCaSecretData({ commonName: 'test CA', now: ISSUED }), ISSUED);
  if (!reading.ok) throw new Error(reading.problem);
  return reading.ca;
}

async function issued(authority: SigningCa, validityHours = 90): Promise<Record<string, string>> {
  return issueMemberSecretData({ ca: authority, commonName: 'zk.prod', dnsNames: names, validityHours, now: ISSUED });
}

describe('certificateVerdict', () => {
  it('keeps a fresh certificate and renews it when a third of its lifetime is left', async () => {
    const authority = await ca();
    const data = await issued(authority);
    const verdict = certificateVerdict({ data, caPem: authority.certificatePem, dnsNames: names, renewBeforeMinutes: undefined, now: new Date(ISSUED.getTime() + HOUR) });
    expect(verdict).toMatchObject({ action: 'keep', notAfter: new Date(ISSUED.getTime() + 90 * HOUR) });
    // Lifetime 90 h plus 5 min of backdating; renewal at two thirds of it, counted from the backdated start.
    const start = ISSUED.getTime() - 5 * 60_000;
    const renewAt = new Date(start + ((ISSUED.getTime() + 90 * HOUR - start) * 2) / 3);
    expect(verdict.action === 'keep' ? verdict.renewAt : undefined).toEqual(renewAt);
    expect(certificateVerdict({ data, caPem: authority.certificatePem, dnsNames: names, renewBeforeMinutes: undefined, now: renewAt })).toEqual({
      action: 'issue',
      cause: 'renewal',
      reason: `renewal due since ${kubernetesTime(renewAt)}`,
    });
  });

  it('renews renewBeforeMinutes before expiry, and a changed renewBeforeMinutes moves the renewal of the certificate in use', async () => {
    const authority = await ca();
    const data = await issued(authority, 1);
    const notAfter = ISSUED.getTime() + HOUR;
    const verdictAt = (renewBeforeMinutes: number, now: number) =>
      certificateVerdict({ data, caPem: authority.certificatePem, dnsNames: names, renewBeforeMinutes, now: new Date(now) });
    expect(verdictAt(20, ISSUED.getTime())).toMatchObject({ action: 'keep', renewAt: new Date(notAfter - 20 * 60_000) });
    expect(verdictAt(59, ISSUED.getTime())).toMatchObject({ action: 'keep', renewAt: new Date(notAfter - 59 * 60_000) });
    // Two minutes after issuance the certificate is kept at 58 minutes before expiry, and due at 59.
    const later = ISSUED.getTime() + 2 * 60_000;
    expect(verdictAt(57, later)).toMatchObject({ action: 'keep', renewAt: new Date(notAfter - 57 * 60_000) });
    const due = new Date(notAfter - 59 * 60_000);
    expect(verdictAt(59, later)).toEqual({ action: 'issue', cause: 'renewal', reason: `renewal due since ${kubernetesTime(due)}` });
  });

  it('issues when there is no Secret, or its certificate does not parse', async () => {
    const authority = await ca();
    expect(certificateVerdict({ data: undefined, caPem: authority.certificatePem, dnsNames: names, renewBeforeMinutes: undefined, now: ISSUED })).toEqual({ action: 'issue', cause: 'missing', reason: 'no certificate yet' });
    const data = { ...(await issued(authority)), [TLS_SECRET_KEYS.certificate]: 'not a certificate' };
    expect(certificateVerdict({ data, caPem: authority.certificatePem, dnsNames: names, renewBeforeMinutes: undefined, now: ISSUED })).toEqual({ action: 'issue', cause: 'unreadable', reason: 'the certificate does not parse' });
  });

  it('issues when the key is missing or belongs to another certificate', async () => {
    const authority = await ca();
    const data = await issued(authority);
    const other = await issued(authority);
    const issue = { action: 'issue', cause: 'key', reason: 'the private key is missing or does not match the certificate' };
    const { [TLS_SECRET_KEYS.privateKey]: _key, ...withoutKey } = data;
    expect(certificateVerdict({ data: withoutKey, caPem: authority.certificatePem, dnsNames: names, renewBeforeMinutes: undefined, now: ISSUED })).toEqual(issue);
    const swapped = { ...data, [TLS_SECRET_KEYS.privateKey]: other[TLS_SECRET_KEYS.privateKey] ?? '' };
    expect(certificateVerdict({ data: swapped, caPem: authority.certificatePem, dnsNames: names, renewBeforeMinutes: undefined, now: ISSUED })).toEqual(issue);
  });

  it('issues when the CA changed, and when the names the members need changed', async () => {
    const data = await issued(await ca());
    const newCa = await ca();
    expect(certificateVerdict({ data, caPem: newCa.certificatePem, dnsNames: names, renewBeforeMinutes: undefined, now: ISSUED })).toEqual({
      action: 'issue',
      cause: 'otherCa',
      reason: 'the certificate was not issued by the current CA',
    });
    const authority = await ca();
    const current = await issued(authority);
    expect(certificateVerdict({ data: current, caPem: authority.certificatePem, dnsNames: memberCertificateNames('zk', 'staging'), renewBeforeMinutes: undefined, now: ISSUED })).toEqual({
      action: 'issue',
      cause: 'names',
      reason: 'the names the members need changed',
    });
  });
});
