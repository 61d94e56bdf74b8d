// The client CA Secret a user names: every way it can be unusable is named, and its digest follows ca.crt only.
import { CA_SECRET_KEYS } from '@zk-oam/apis';
import { describe, expect, it } from 'vitest';
import { issueCaSecretData } from '../secret-data.js';
import { readClientCa } from './client-ca-secret.js';

const NOW = new Date('2026-11-25T12:00:00Z');

async function caPem(commonName: string): Promise<string> {
  return (await issueCaSecretData({ commonName, now: NOW }))[CA_SECRET_KEYS.certificate] ?? '';
}

function secretData(data: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(data).map(([key, value]) => [key, Buffer.from(value, 'utf8').toString('base64')]));
}

describe('readClientCa', () => {
  it('accepts one or more CA certificates in ca.crt, and digests the file as mounted', async () => {
    const bundle = `${await caPem('clients a')}\n${await caPem('clients b')}`;
    const reading = readClientCa(secretData({ 'ca.crt': bundle, note: 'ignored' }));
    expect(reading).toEqual({ ok: true, digest: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(readClientCa(secretData({ 'ca.crt': bundle }))).toEqual(reading);
    expect(readClientCa(secretData({ 'ca.crt': await caPem('clients a') }))).not.toEqual(reading);
  });

  it.each([
    ['no ca.crt', async () => ({ 'tls.crt': await caPem('x') }), 'has no key ca.crt: put there the PEM certificate(s) of the CA that signs client certificates'],
    ['no certificate', () => Promise.resolve({ 'ca.crt': 'not a certificate' }), 'has no PEM certificate in ca.crt'],
    [
      'a certificate that does not parse',
      async () => ({ 'ca.crt': `${await caPem('x')}\n-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n` }),
      'holds in ca.crt a certificate that does not parse (certificate 2 of 2)',
    ],
    [
      'two certificates with one subject',
      async () => ({ 'ca.crt': `${await caPem('clients')}${await caPem('clients')}` }),
      'holds in ca.crt two certificates with the subject "CN=clients" (certificate 2 of 2): ZooKeeper\'s PEM trust store would keep only the last',
    ],
    [
      'a private key',
      async () => {
        const data = await issueCaSecretData({ commonName: 'x', now: NOW });
        return { 'ca.crt': `${data[CA_SECRET_KEYS.certificate] ?? ''}${data[CA_SECRET_KEYS.privateKey] ?? ''}` };
      },
      "holds a private key in ca.crt: the members need the CA's certificate only, keep its key elsewhere",
    ],
  ])('refuses %s, naming the key', async (_case, data, problem) => {
    expect(readClientCa(secretData(await data()))).toEqual({ ok: false, problem });
  });
});
