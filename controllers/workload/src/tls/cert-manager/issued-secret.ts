// Whether the member Secret an issuer wrote (cert-manager, for the Certificate the controller requested) can be mounted
// by the members: the decision is pure (Secret data, names and the time in; a verdict out). The controller never
// writes this Secret, so a bad one is waited for and reported, not replaced.
import { kubernetesTime, TLS_SECRET_KEYS } from '@zk-oam/apis';
import { dnsNamesOf, keyMatches, parsed, pemBlocks } from '../pem.js';

export type IssuedVerdict =
  | { readonly usable: true; readonly caPem: string; readonly fingerprint: string; readonly notAfter: Date }
  | { readonly usable: false; readonly problem: string };

export interface IssuedInput {
  /** The Secret's data, decoded; undefined when there is no Secret. */
  readonly data: Readonly<Record<string, string>> | undefined;
  readonly dnsNames: readonly string[];
  readonly now: Date;
}

/** The problem with the Secret, or undefined. Members trust ca.crt only, so the chain in tls.crt must end at it. */
function problemOf(data: Readonly<Record<string, string>>, dnsNames: readonly string[], now: Date): string | undefined {
  const missing = Object.values(TLS_SECRET_KEYS).filter((key) => (data[key] ?? '') === '');
  if (missing.length > 0) return `lacks ${missing.join(', ')}`;
  const chain = pemBlocks(data[TLS_SECRET_KEYS.certificate] ?? '').map(parsed);
  const [leaf] = chain;
  const ca = parsed(data[TLS_SECRET_KEYS.ca]);
  if (leaf === undefined || ca === undefined || chain.includes(undefined)) return `holds a ${TLS_SECRET_KEYS.certificate} or ${TLS_SECRET_KEYS.ca} that does not parse`;
  if (!keyMatches(leaf, data[TLS_SECRET_KEYS.privateKey])) return `holds a ${TLS_SECRET_KEYS.privateKey} that is not the certificate's key`;
  const last = chain.at(-1) ?? leaf;
  if (last.fingerprint256 !== ca.fingerprint256 && !(last.checkIssued(ca) && last.verify(ca.publicKey))) {
    return `holds a certificate that does not chain to its ${TLS_SECRET_KEYS.ca}`;
  }
  if (dnsNamesOf(leaf).join(',') !== dnsNames.join(',')) return "holds a certificate for other names than the members need (the issuer has not issued the current request yet)";
  if (now.getTime() >= new Date(leaf.validTo).getTime()) return `holds a certificate that expired at ${kubernetesTime(new Date(leaf.validTo))}`;
  return undefined;
}

export function issuedSecretVerdict({ data, dnsNames, now }: IssuedInput): IssuedVerdict {
  if (data === undefined) return { usable: false, problem: 'does not exist yet' };
  const problem = problemOf(data, dnsNames, now);
  const leaf = parsed(pemBlocks(data[TLS_SECRET_KEYS.certificate] ?? '')[0]);
  if (problem !== undefined || leaf === undefined) return { usable: false, problem: problem ?? 'does not parse' };
  return { usable: true, caPem: data[TLS_SECRET_KEYS.ca] ?? '', fingerprint: leaf.fingerprint256, notAfter: new Date(leaf.validTo) };
}
