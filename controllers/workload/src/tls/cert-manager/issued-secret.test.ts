// When the member Secret an issuer (cert-manager) wrote can be mounted, and each problem that keeps the workload waiting.
import { kubernetesTime, TLS_SECRET_KEYS } from '@zk-oam/apis';
import { describe, expect, it } from 'vitest';
import { readCa } from '../ca-secret.js';
import { memberCertificateNames } from '../certificate-names.js';
import type { SigningCa } from '../issue.js';
import { issueCaSecretData, issueMemberSecretData } from '../secret-data.js';
import { issuedSecretVerdict } from './issued-secret.js';

const ISSUED = new Date('2026-11-25T12:00:00Z');
const HOUR = 3_600_000;
const names = memberCertificateNames('zk', 'prod');

async function authority(commonName = 'issuer CA'): Promise<SigningCa> {
  const reading = await readCa(await issueCaSecretData({ commonName, now: ISSUED }), ISSUED);
  if (!reading.ok) throw new Error(reading.problem);
  return reading.ca;
}

/** The Secret data cert-manager writes for a CA issuer: tls.crt, tls.key, ca.crt. */
async function issuedBy(ca: SigningCa, dnsNames: readonly string[] = names): Promise<Record<string, string>> {
  return issueMemberSecretData({ ca, commonName: 'zk.prod', dnsNames, validityHours: 24, now: ISSUED });
}

const at = (hours: number): Date => new Date(ISSUED.getTime() + hours * HOUR);

describe('issuedSecretVerdict', () => {
  it('takes a Secret whose certificate chains to its ca.crt, for the members\' names, with its key: its fingerprint and CA', async () => {
    const ca = await authority();
    const data = await issuedBy(ca);
    const verdict = issuedSecretVerdict({ data, dnsNames: names, now: at(1) });
    expect(verdict).toMatchObject({ usable: true, caPem: ca.certificatePem, notAfter: at(24) });
    expect(verdict.usable && verdict.fingerprint).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
  });

  it('takes a tls.crt that carries an intermediate after the leaf when the last one is ca.crt itself', async () => {
    const ca = await authority();
    const data = await issuedBy(ca);
    const bundled = { ...data, [TLS_SECRET_KEYS.certificate]: `${data[TLS_SECRET_KEYS.certificate] ?? ''}${ca.certificatePem}` };
    expect(issuedSecretVerdict({ data: bundled, dnsNames: names, now: at(1) })).toMatchObject({ usable: true });
  });

  it.each([
    ['no Secret', () => Promise.resolve(undefined), 'does not exist yet'],
    ['a Secret without ca.crt', async () => ({ ...(await issuedBy(await authority())), [TLS_SECRET_KEYS.ca]: '' }), 'lacks ca.crt'],
    ['an empty Secret', () => Promise.resolve({}), 'lacks tls.crt, tls.key, ca.crt'],
    ['a certificate that does not parse', async () => ({ ...(await issuedBy(await authority())), [TLS_SECRET_KEYS.certificate]: 'nope' }), 'holds a tls.crt or ca.crt that does not parse'],
    [
      'another certificate\'s key',
      async () => {
        const ca = await authority();
        return { ...(await issuedBy(ca)), [TLS_SECRET_KEYS.privateKey]: (await issuedBy(ca))[TLS_SECRET_KEYS.privateKey] ?? '' };
      },
      "holds a tls.key that is not the certificate's key",
    ],
    [
      'a ca.crt that did not sign it',
      async () => ({ ...(await issuedBy(await authority())), [TLS_SECRET_KEYS.ca]: (await authority('another CA')).certificatePem }),
      'holds a certificate that does not chain to its ca.crt',
    ],
    [
      'other names',
      async () => issuedBy(await authority(), names.slice(1)),
      'holds a certificate for other names than the members need (the issuer has not issued the current request yet)',
    ],
  ])('waits on %s', async (_case, data, problem) => {
    expect(issuedSecretVerdict({ data: await data(), dnsNames: names, now: at(1) })).toEqual({ usable: false, problem });
  });

  it('waits on an expired certificate', async () => {
    const data = await issuedBy(await authority());
    expect(issuedSecretVerdict({ data, dnsNames: names, now: at(24) })).toEqual({ usable: false, problem: `holds a certificate that expired at ${kubernetesTime(at(24))}` });
  });
});
