// The bed's PKI, made with the openssl CLI: a tiny CA, the apiserver's serving certificate, client
// certificates for admin / controller manager / scheduler / kube-proxy, and the service-account RSA key pair.
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { BedSetupError } from './errors.js';

const run = promisify(execFile);

export interface KeyPair {
  certFile: string;
  keyFile: string;
}

export interface Pki {
  dir: string;
  ca: KeyPair;
  apiserver: KeyPair;
  admin: KeyPair;
  controllerManager: KeyPair;
  scheduler: KeyPair;
  kubeProxy: KeyPair;
  /** RSA private key signing service-account tokens, and its public half verifying them. */
  serviceAccountKeyFile: string;
  serviceAccountPublicKeyFile: string;
}

/** openssl's own config would add CA extensions to every certificate; this one adds none. */
const minimalConfig = '[req]\ndistinguished_name = dn\n[dn]\n';

/** The names every apiserver certificate has; the addresses pods reach it at are the bed's own (`apiserverIps`). */
const apiserverNames = [
  'IP:127.0.0.1',
  'DNS:localhost',
  'DNS:kubernetes',
  'DNS:kubernetes.default',
  'DNS:kubernetes.default.svc',
  'DNS:kubernetes.default.svc.cluster.local',
];

/** `apiserverIps`: the addresses beside 127.0.0.1 the apiserver is reached at (the bed's, the `kubernetes` Service's). */
export async function createPki(dir: string, apiserverIps: readonly string[]): Promise<Pki> {
  mkdirSync(dir, { recursive: true });
  const config = join(dir, 'openssl.cnf');
  writeFileSync(config, minimalConfig);
  const pair = (name: string): KeyPair => ({ certFile: join(dir, `${name}.crt`), keyFile: join(dir, `${name}.key`) });
  const pki: Pki = {
    dir,
    ca: pair('ca'),
    apiserver: pair('apiserver'),
    admin: pair('admin'),
    controllerManager: pair('kube-controller-manager'),
    scheduler: pair('kube-scheduler'),
    kubeProxy: pair('kube-proxy'),
    serviceAccountKeyFile: join(dir, 'service-account.key'),
    serviceAccountPublicKeyFile: join(dir, 'service-account.pub'),
  };
  await openssl('the CA', [
    ...newEcCertificate(config, pki.ca, '/CN=zk-oam-bed-ca', 3650),
    ...['-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign'],
  ]);
  const signed = (pairOut: KeyPair, subject: string, usage: string, names?: string[]): Promise<void> =>
    openssl(`the certificate ${subject}`, [
      ...newEcCertificate(config, pairOut, subject, 365),
      ...['-CA', pki.ca.certFile, '-CAkey', pki.ca.keyFile],
      ...['-addext', 'basicConstraints=critical,CA:FALSE', '-addext', 'keyUsage=critical,digitalSignature'],
      ...['-addext', `extendedKeyUsage=${usage}`],
      ...(names ? ['-addext', `subjectAltName=${names.join(',')}`] : []),
    ]);
  await Promise.all([
    signed(pki.apiserver, '/CN=kube-apiserver', 'serverAuth', [...apiserverIps.map((address) => `IP:${address}`), ...apiserverNames]),
    signed(pki.admin, '/O=system:masters/CN=bed-admin', 'clientAuth'),
    signed(pki.controllerManager, '/CN=system:kube-controller-manager', 'clientAuth'),
    signed(pki.scheduler, '/CN=system:kube-scheduler', 'clientAuth'),
    // The user the apiserver's bootstrap policy binds to system:node-proxier.
    signed(pki.kubeProxy, '/CN=system:kube-proxy', 'clientAuth'),
    createServiceAccountKeys(pki),
  ]);
  return pki;
}

function newEcCertificate(config: string, pair: KeyPair, subject: string, days: number): string[] {
  return [
    'req', '-config', config, '-x509', '-nodes',
    '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1',
    '-keyout', pair.keyFile, '-out', pair.certFile, '-days', String(days), '-subj', subject,
  ];
}

async function createServiceAccountKeys(pki: Pki): Promise<void> {
  await openssl('the service-account key', [
    'genpkey', '-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:2048', '-out', pki.serviceAccountKeyFile,
  ]);
  await openssl('the service-account public key', [
    'pkey', '-in', pki.serviceAccountKeyFile, '-pubout', '-out', pki.serviceAccountPublicKeyFile,
  ]);
}

async function openssl(what: string, args: string[]): Promise<void> {
  try {
    await run('openssl', args);
  } catch (error) {
    throw new BedSetupError(`creating ${what} with openssl`, { cause: error });
  }
}

/** Reads a PEM file, for embedding into kubeconfigs and TLS options. */
export function readPem(file: string): string {
  return readFileSync(file, 'utf8');
}
