// Issues the workload's CA certificate and the member certificate with @peculiar/x509 (Node cannot sign certificates).
// Keys, names, serial and times come in; nothing is read from the environment or the clock.
import { webcrypto } from 'node:crypto';
// @peculiar/x509 resolves its ASN.1 parsers through tsyringe, which needs the Reflect metadata API loaded first.
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import type { KeyPair, SigningAlgorithm } from './keys.js';

x509.cryptoProvider.set(webcrypto);

export interface Validity {
  readonly notBefore: Date;
  readonly notAfter: Date;
}

export interface CaInput extends Validity {
  readonly keys: KeyPair;
  /** Common name of the CA: names the workload it serves. */
  readonly commonName: string;
  /** Hex, positive. */
  readonly serialNumber: string;
}

/** A self-signed CA that may sign end-entity certificates only (path length 0). PEM. */
export async function issueCaCertificate(input: CaInput): Promise<string> {
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: input.serialNumber,
    name: [{ CN: [input.commonName] }],
    notBefore: input.notBefore,
    notAfter: input.notAfter,
    signingAlgorithm: input.keys.algorithm,
    keys: { publicKey: input.keys.publicKey, privateKey: input.keys.privateKey },
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(input.keys.publicKey),
    ],
  });
  return certificate.toString('pem');
}

export interface SigningCa {
  readonly certificatePem: string;
  readonly privateKey: webcrypto.CryptoKey;
  readonly algorithm: SigningAlgorithm;
}

export interface MemberCertificateInput extends Validity {
  readonly ca: SigningCa;
  readonly publicKey: webcrypto.CryptoKey;
  readonly commonName: string;
  readonly dnsNames: readonly string[];
  readonly serialNumber: string;
}

/**
 * The member certificate: server authentication for clients and peers, client authentication because each member
 * also connects to its peers with it (quorum TLS is mutual). PEM.
 */
export async function issueMemberCertificate(input: MemberCertificateInput): Promise<string> {
  const ca = new x509.X509Certificate(input.ca.certificatePem);
  const certificate = await x509.X509CertificateGenerator.create({
    serialNumber: input.serialNumber,
    subject: [{ CN: [input.commonName] }],
    issuer: ca.subject,
    notBefore: input.notBefore,
    notAfter: input.notAfter,
    signingAlgorithm: input.ca.algorithm,
    publicKey: input.publicKey,
    signingKey: input.ca.privateKey,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth, x509.ExtendedKeyUsage.clientAuth]),
      new x509.SubjectAlternativeNameExtension(input.dnsNames.map((value) => ({ type: 'dns' as const, value }))),
      await x509.AuthorityKeyIdentifierExtension.create(ca),
      await x509.SubjectKeyIdentifierExtension.create(input.publicKey),
    ],
  });
  return certificate.toString('pem');
}
