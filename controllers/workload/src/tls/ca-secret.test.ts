// A CA Secret a user names: every way it can be unusable is named, so the condition tells the user what to fix.
import { generateKeyPairSync, KeyObject, webcrypto, X509Certificate } from 'node:crypto';
import { CA_SECRET_KEYS } from '@zk-oam/apis';
import { describe, expect, it } from 'vitest';
import { readCa } from './ca-secret.js';
import { issueCaCertificate } from './issue.js';
import { issueCaSecretData, issueMemberSecretData } from './secret-data.js';

const NOW = new Date('2026-11-25T12:00:00Z');
const HOUR = 3_600_000;

describe('readCa', () => {
  it('accepts a CA certificate with its key, and signs with it', async () => {
    const reading = await readCa(await issueCaSecretData({ commonName: 'ca', now: NOW }), NOW);
    expect(reading.ok).toBe(true);
  });

  it('signs with a user\'s RSA CA whose key is in PKCS#1 form (`openssl genrsa`)', async () => {
    const algorithm = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' } as const;
    const pair = await webcrypto.subtle.generateKey({ ...algorithm, modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]) }, true, ['sign', 'verify']);
    const certificate = await issueCaCertificate({ keys: { algorithm, ...pair }, commonName: 'rsa ca', serialNumber: '01', notBefore: NOW, notAfter: new Date(NOW.getTime() + HOUR) });
    const pkcs1 = String(KeyObject.from(pair.privateKey).export({ type: 'pkcs1', format: 'pem' }));
    const reading = await readCa({ [CA_SECRET_KEYS.certificate]: certificate, [CA_SECRET_KEYS.privateKey]: pkcs1 }, NOW);
    if (!reading.ok) throw new Error(reading.problem);
    const member = await issueMemberSecretData({ ca: reading.ca, commonName: 'm', dnsNames: ['m'], validityHours: 1, now: NOW });
    expect(new X509Certificate(member['tls.crt'] ?? '').verify(new X509Certificate(certificate).publicKey)).toBe(true);
  });

  it('says when the key belongs to another certificate', async () => {
    const data = await issueCaSecretData({ commonName: 'ca', now: NOW });
    const otherKey = String(generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'sec1', format: 'pem' }));
    expect(await readCa({ ...data, [CA_SECRET_KEYS.privateKey]: otherKey }, NOW)).toEqual({
      ok: false,
      problem: 'holds in tls.key a key that does not belong to the certificate in tls.crt',
    });
  });

  it.each([
    ['both keys missing', {}, 'lacks the key(s) tls.crt, tls.key'],
    ['the key missing', { [CA_SECRET_KEYS.certificate]: 'x' }, 'lacks the key(s) tls.key'],
    ['no certificate', { [CA_SECRET_KEYS.certificate]: 'x', [CA_SECRET_KEYS.privateKey]: 'y' }, 'has no PEM certificate in tls.crt'],
  ])('names the problem: %s', async (_case, data, problem) => {
    expect(await readCa(data, NOW)).toEqual({ ok: false, problem });
  });

  it('refuses an unreadable key, an expired CA, and a certificate that is not a CA', async () => {
    const data = await issueCaSecretData({ commonName: 'ca', now: NOW });
    expect(await readCa({ ...data, [CA_SECRET_KEYS.privateKey]: 'garbage' }, NOW)).toEqual({
      ok: false,
      problem: 'has no readable unencrypted PEM private key in tls.key',
    });
    expect(await readCa(data, new Date(NOW.getTime() + 11 * 8_760 * HOUR))).toMatchObject({ ok: false, problem: expect.stringMatching(/^holds in tls.crt a CA certificate valid only from /) });
    const reading = await readCa(data, NOW);
    if (!reading.ok) throw new Error(reading.problem);
    const member = await issueMemberSecretData({ ca: reading.ca, commonName: 'm', dnsNames: ['m'], validityHours: 1, now: NOW });
    expect(await readCa({ [CA_SECRET_KEYS.certificate]: member['tls.crt'] ?? '', [CA_SECRET_KEYS.privateKey]: member['tls.key'] ?? '' }, NOW)).toEqual({
      ok: false,
      problem: 'holds in tls.crt a certificate that is not a CA (basicConstraints CA:TRUE)',
    });
  });
});
