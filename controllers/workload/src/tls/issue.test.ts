// The certificates the controller issues, read back with Node's X509Certificate: chain, validity, names, usages; and
// accepted on a real TLS socket by the four-letter-word client the observer uses.
import { X509Certificate } from 'node:crypto';
import { createServer, type Server } from 'node:tls';
import { CA_SECRET_KEYS, TLS_SECRET_KEYS } from '@zk-oam/apis';
import { fourLetterWord } from '@zk-oam/zookeeper';
import { afterEach, describe, expect, it } from 'vitest';
import { readCa } from './ca-secret.js';
import { memberCertificateNames } from './certificate-names.js';
import type { SigningCa } from './issue.js';
import { dnsNamesOf } from './pem.js';
import { CA_VALIDITY_HOURS, issueCaSecretData, issueMemberSecretData } from './secret-data.js';

const NOW = new Date('2026-11-25T12:00:00Z');
const HOUR = 3_600_000;
const names = memberCertificateNames('zk', 'prod');

async function signingCa(): Promise<{ data: Record<string, string>; ca: SigningCa }> {
  const data = await issueCaSecretData({ commonName: 'zk-oam CA of ZookeeperWorkload prod/zk', now: NOW });
  const reading = await readCa(data, NOW);
  if (!reading.ok) throw new Error(reading.problem);
  return { data, ca: reading.ca };
}

describe('the certificates the workload controller issues', () => {
  it('names every member under the headless Service and the client Service in each DNS form', () => {
    expect(names).toEqual([
      '*.zk-headless.prod',
      '*.zk-headless.prod.svc',
      '*.zk-headless.prod.svc.cluster.local',
      'zk-client',
      'zk-client.prod',
      'zk-client.prod.svc',
      'zk-client.prod.svc.cluster.local',
    ]);
  });

  it('makes a self-signed CA that may sign end-entity certificates only, valid for ten years', async () => {
    const { data } = await signingCa();
    const ca = new X509Certificate(data[CA_SECRET_KEYS.certificate] ?? '');
    expect(ca.ca).toBe(true);
    expect(ca.checkIssued(ca)).toBe(true);
    expect(ca.subject).toBe('CN=zk-oam CA of ZookeeperWorkload prod/zk');
    expect(new Date(ca.validTo).getTime() - NOW.getTime()).toBeCloseTo(CA_VALIDITY_HOURS * HOUR, -4);
    expect(data[CA_SECRET_KEYS.privateKey]).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
  });

  it('issues the member certificate from that CA, for the requested hours, with every name and both TLS roles', async () => {
    const { ca } = await signingCa();
    const data = await issueMemberSecretData({ ca, commonName: 'zk.prod', dnsNames: names, validityHours: 48, now: NOW });
    const certificate = new X509Certificate(data[TLS_SECRET_KEYS.certificate] ?? '');
    const authority = new X509Certificate(data[TLS_SECRET_KEYS.ca] ?? '');
    expect(certificate.checkIssued(authority)).toBe(true);
    expect(certificate.verify(authority.publicKey)).toBe(true);
    expect(certificate.ca).toBe(false);
    expect(dnsNamesOf(certificate)).toEqual(names);
    expect(certificate.checkHost('zk-2.zk-headless.prod.svc.cluster.local')).toBe('*.zk-headless.prod.svc.cluster.local');
    expect(certificate.checkHost('zk-0.zk-other.prod.svc.cluster.local')).toBeUndefined();
    expect(certificate.keyUsage).toEqual(['1.3.6.1.5.5.7.3.1', '1.3.6.1.5.5.7.3.2']);
    expect(new Date(certificate.validTo).getTime() - NOW.getTime()).toBe(48 * HOUR);
    // Backdated, for members whose clock lags.
    expect(new Date(certificate.validFrom).getTime()).toBeLessThan(NOW.getTime());
  });

  it("keeps the key as unencrypted PKCS#8, in cert-manager's layout: tls.crt, tls.key and ca.crt, nothing else", async () => {
    const { ca } = await signingCa();
    const data = await issueMemberSecretData({ ca, commonName: 'zk.prod', dnsNames: names, validityHours: 48, now: NOW });
    const key = data[TLS_SECRET_KEYS.privateKey] ?? '';
    expect(key).toMatch(/^-----BEGIN PRIVATE KEY-----\n[\s\S]+-----END PRIVATE KEY-----\n$/);
    expect(Object.keys(data).sort()).toEqual(['ca.crt', 'tls.crt', 'tls.key']);
  });
});

describe('a member serving its certificate over TLS', () => {
  const servers: Server[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
  });

  async function serve(): Promise<{ port: number; caPem: string }> {
    const { ca } = await signingCa();
    const data = await issueMemberSecretData({ ca, commonName: 'zk.prod', dnsNames: names, validityHours: 48, now: new Date() });
    const server = createServer({ key: data[TLS_SECRET_KEYS.privateKey], cert: data[TLS_SECRET_KEYS.certificate] }, (socket) => {
      socket.once('data', (word: Buffer) => socket.end(`Mode: leader\nyou said ${word.toString()}\n`));
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('no TCP address');
    return { port: address.port, caPem: ca.certificatePem };
  }

  it('answers the observer, which trusts the CA and checks the member name', async () => {
    const { port, caPem } = await serve();
    const tls = { ca: caPem, serverName: 'zk-1.zk-headless.prod.svc.cluster.local' };
    await expect(fourLetterWord('127.0.0.1', port, 'srvr', { tls })).resolves.toBe('Mode: leader\nyou said srvr\n');
  });

  it('is refused by the observer under a name its certificate does not carry, or with another CA', async () => {
    const { port, caPem } = await serve();
    const wrongName = { ca: caPem, serverName: 'zk-1.other-headless.prod.svc.cluster.local' };
    await expect(fourLetterWord('127.0.0.1', port, 'srvr', { tls: wrongName })).rejects.toThrow(/altnames/);
    const otherCa = { ca: (await signingCa()).ca.certificatePem, serverName: 'zk-1.zk-headless.prod.svc.cluster.local' };
    await expect(fourLetterWord('127.0.0.1', port, 'srvr', { tls: otherCa })).rejects.toThrow(/certificate/);
  });
});
