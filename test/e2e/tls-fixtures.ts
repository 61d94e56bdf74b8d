// What the bed tests of ensembles with a secure client port share: the member certificate in the workload's Secret, the
// one each member serves, the CA file and connect string a TLS client is given, the TLS writer's figures, and client
// certificates made with openssl for the x509 provider.
import { execFile } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { once } from 'node:events';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { connect } from 'node:tls';
import { promisify } from 'node:util';
import { derivedNames, memberHost, memberSelectorOf, TLS_SECRET_KEYS, ZOOKEEPER_PORTS } from '@zk-oam/apis';
import type { V1Pod } from '@kubernetes/client-node';
import type { WorkloadClient } from '../src/controllers/index.js';
import type { JavaWriter, JavaWriterReport } from '../src/ensemble-probe/index.js';

export interface TlsWorkload {
  readonly client: WorkloadClient;
  readonly namespace: string;
  readonly workload: string;
}

/**
 * The members' secure client ports, as a TLS client is given them: by their DNS names, which the members' certificates
 * carry and which follow a member replaced with a new address (a pod IP would not).
 */
export async function secureConnectString({ client, namespace, workload }: TlsWorkload): Promise<string> {
  const pods = (await client.core.listNamespacedPod({ namespace, labelSelector: memberSelectorOf(workload) })).items;
  return memberServers(pods, { namespace, workload }, ZOOKEEPER_PORTS.secureClient).join(',');
}

/**
 * `<member FQDN>:<port>` of each pod, by ordinal: how a TLS client names a member, so that the name it checks the
 * certificate against is one the certificate carries (an IP would be checked by its reverse lookup, which cluster DNS
 * answers with whichever Service's name it finds first).
 */
export function memberServers(pods: readonly V1Pod[], { namespace, workload }: Pick<TlsWorkload, 'namespace' | 'workload'>, port: number): string[] {
  const ordinals = pods.map((pod) => Number(pod.metadata?.name?.split('-').pop())).sort((a, b) => a - b);
  return ordinals.map((ordinal) => `${memberHost(workload, namespace, ordinal)}:${String(port)}`);
}

/** A value of the workload's member Secret (`<name>-tls`). */
export async function tlsSecretValue({ client, namespace, workload }: TlsWorkload, key: string): Promise<Buffer> {
  const secret = await client.core.readNamespacedSecret({ namespace, name: derivedNames(workload).tlsSecret });
  return Buffer.from(secret.data?.[key] ?? '', 'base64');
}

/** The member certificate in the workload's Secret. */
export async function issuedCertificate(target: TlsWorkload): Promise<X509Certificate> {
  return new X509Certificate(await tlsSecretValue(target, TLS_SECRET_KEYS.certificate));
}

/**
 * The renewBeforeMinutes that makes `certificate` fall due at least `dueAfterMs` from now, and at most a minute later
 * (renewBeforeMinutes is whole minutes, counted back from the certificate's own expiry), and when that is.
 */
export function renewalDueSoon(certificate: X509Certificate, dueAfterMs: number): { renewBeforeMinutes: number; dueAt: Date } {
  const notAfter = new Date(certificate.validTo).getTime();
  const renewBeforeMinutes = Math.floor((notAfter - Date.now() - dueAfterMs) / 60_000);
  return { renewBeforeMinutes, dueAt: new Date(notAfter - renewBeforeMinutes * 60_000) };
}

/** Writes the CA of the workload's Secret into `dir`, for clients that trust it; returns the file. */
export async function writeCaFile(target: TlsWorkload, dir: string): Promise<string> {
  const caFile = join(dir, 'ca.crt');
  await writeFile(caFile, await tlsSecretValue(target, TLS_SECRET_KEYS.ca));
  return caFile;
}

/** The serial number of the certificate a member presents on its secure client port, its chain verified to the CA. */
export async function servedSerial(ip: string, caFile: string): Promise<string> {
  const socket = connect({ host: ip, port: ZOOKEEPER_PORTS.secureClient, ca: await readFile(caFile), checkServerIdentity: () => undefined });
  try {
    await once(socket, 'secureConnect');
    return socket.getPeerCertificate().serialNumber.toUpperCase();
  } finally {
    socket.destroy();
  }
}

/** The writes a writer had acknowledged during each step run through `step`, in order. */
export class WritesPerStep {
  readonly counts: number[] = [];

  constructor(private readonly writer: Pick<JavaWriter, 'count'>) {}

  async step(run: () => Promise<void>): Promise<void> {
    const before = this.writer.count;
    await run();
    this.counts.push(this.writer.count - before);
  }
}

/** One line of the writer's figures, with the writes acknowledged during each step of the test. */
export function writerSummary(what: string, report: JavaWriterReport, writesDuring: readonly number[]): string {
  return (
    `${what}: lost writes ${String(report.lost.length)} of ${String(report.acknowledged)} acknowledged, ` +
    `${String(report.unacknowledged)} unknown, sessions ${String(report.sessions)}, longest write gap ${String(report.longestGapMs)} ms, ` +
    `acknowledged during each step ${writesDuring.join(' / ')}`
  );
}

/**
 * Whether a member's port, in a TLS handshake, presents a certificate that verifies to `ca` (optionally presenting a
 * client certificate of its own); a failed verification is false, not an error.
 */
export async function handshakeVerifies(ip: string, port: number, credentials: { ca: string | Buffer; cert?: Buffer; key?: Buffer }): Promise<boolean> {
  const socket = connect({ host: ip, port, ...credentials, rejectUnauthorized: false, checkServerIdentity: () => undefined });
  try {
    await new Promise<void>((resolve, reject) => {
      socket.once('secureConnect', resolve);
      socket.once('error', reject);
    });
    return socket.authorized;
  } finally {
    socket.destroy();
  }
}

const run = promisify(execFile);

function openssl(dir: string, ...args: string[]): Promise<unknown> {
  return run('openssl', args, { cwd: dir });
}

/** A self-signed CA: `<file>.key` and `<file>.crt` in dir. */
export async function makeCa(dir: string, file: string, subject: string): Promise<void> {
  await openssl(dir, 'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${file}.key`, '-out', `${file}.crt`, '-days', '2', '-subj', subject);
}

/**
 * A client certificate of the CA `ca` with the subject CN=<user>, its PKCS#8 key before it in `<user>.pem`: ZooKeeper's
 * PEM key store.
 */
export async function makeClient(dir: string, ca: string, user: string): Promise<string> {
  await openssl(dir, 'req', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${user}.key`, '-out', `${user}.csr`, '-subj', `/CN=${user}`);
  await openssl(dir, 'x509', '-req', '-in', `${user}.csr`, '-CA', `${ca}.crt`, '-CAkey', `${ca}.key`, '-CAcreateserial', '-out', `${user}.crt`, '-days', '1');
  const pem = join(dir, `${user}.pem`);
  await writeFile(pem, `${await readFile(join(dir, `${user}.key`), 'utf8')}${await readFile(join(dir, `${user}.crt`), 'utf8')}`);
  return pem;
}
