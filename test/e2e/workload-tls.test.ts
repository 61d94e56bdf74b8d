// A TLS-only ensemble on the bed (tls.quorum and tls.client Only), checked with real clients: it becomes Ready (the
// controller observes it over TLS); `openssl s_client` sees the member certificate issued by the workload's CA with
// the expected names; plain text is refused on the secure port and no plain port is open; ZooKeeper's own Java client
// writes and reads over TLS; a change of TLS is refused. Then a CA Secret the user names but never created: a
// condition naming it, no crash loop. Both client ports beside each other (Alongside) are scale-tls.test.ts's, on the
// ensemble it scales.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { X509Certificate } from 'node:crypto';
import type { V1Pod } from '@kubernetes/client-node';
import {
  derivedNames,
  memberHost,
  memberSelectorOf,
  memberServerName,
  myidOfPod,
  SUPERUSER_SECRET_KEYS,
  TLS_SECRET_KEYS,
  ZOOKEEPER_PORTS,
  type ZookeeperWorkload,
} from '@zk-oam/apis';
import { adminConnector, CONFIRM_ZNODE, HandleGate, observeEnsemble, zxidFromValue, type EnsembleAdmin, type Zxid } from '@zk-oam/zookeeper';
import { CERTIFICATE_ANNOTATION } from '@zk-oam/workload';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runZkCli } from '../src/zookeeper-jvm/index.js';
import { bedWorkloadSpec, condition, eventsAbout, eventSentences, isReady, useWorkloadController, waitFor } from '../src/controllers/index.js';
import { workerBed } from '../src/worker-bed.js';
import { podReady } from '../src/pod-ready.js';
import { memberServers } from './tls-fixtures.js';

const run = promisify(execFile);
const bed = workerBed();
const suite = useWorkloadController(bed, { namespacePrefix: 'wl-tls' });
const { client, namespace } = suite;
const name = 'zk';
const ENSEMBLE_TIMEOUT_MS = 420_000;
const names = derivedNames(name);

async function memberPods(): Promise<V1Pod[]> {
  return (await client.core.listNamespacedPod({ namespace, labelSelector: memberSelectorOf(name) })).items;
}

function healthy(workload: ZookeeperWorkload): boolean {
  const status = workload.status;
  return isReady(workload) && status?.phase === 'Running' && status.leader !== undefined && status.members?.length === 3 && status.members.every((member) => member.synced);
}

/** What a plain-text client gets from a port: the answer to srvr, or the error that ended the exchange. */
function plainText(ip: string, port: number): Promise<{ answer: string; error: string | undefined }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const socket = connect({ host: ip, port });
    socket.setTimeout(5_000, () => socket.destroy(new Error('timeout')));
    socket.on('connect', () => socket.end('srvr'));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    let error: string | undefined;
    socket.on('error', (cause: NodeJS.ErrnoException) => {
      error = cause.code ?? cause.message;
    });
    socket.on('close', () => resolve({ answer: Buffer.concat(chunks).toString('utf8'), error }));
  });
}

describe('a TLS-only workload on the bed', () => {
  let dir: string;
  let caFile: string;
  let pods: V1Pod[] = [];
  let readyAfterMs = 0;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'zk-oam-tls-'));
    const started = Date.now();
    await client.create(namespace, name, bedWorkloadSpec({ tls: { quorum: true, client: 'Only', certificates: { validityHours: 24 } } }));
    await waitFor('the TLS-only workload to be Ready with a leader and 3 synced members', () => client.get(namespace, name), healthy, ENSEMBLE_TIMEOUT_MS);
    readyAfterMs = Date.now() - started;
    pods = await memberPods();
    const secret = await client.core.readNamespacedSecret({ namespace, name: names.tlsSecret });
    caFile = join(dir, 'ca.crt');
    await writeFile(caFile, Buffer.from(secret.data?.[TLS_SECRET_KEYS.ca] ?? '', 'base64'));
  }, ENSEMBLE_TIMEOUT_MS + 60_000);

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
    // One ensemble at a time on the bed's two cores.
    await client.delete(namespace, name);
  });

  it('becomes Ready, observed over TLS: one leader, two synced followers, each member certificate kept in Secrets it owns', async () => {
    console.log(`TLS-only ensemble Ready ${String(Math.round(readyAfterMs / 1000))} s after creation`);
    const workload = await client.get(namespace, name);
    expect(workload.status?.members?.map((member) => member.role).sort()).toEqual(['follower', 'follower', 'leader']);
    for (const secretName of [names.tlsSecret, names.defaultTlsCaSecret]) {
      const secret = await client.core.readNamespacedSecret({ namespace, name: secretName });
      expect(secret.metadata?.ownerReferences?.[0]).toMatchObject({ kind: 'ZookeeperWorkload', name, uid: workload.metadata.uid, controller: true });
    }
    const notes = eventSentences(await eventsAbout(client, namespace, name));
    expect(notes).toEqual(expect.arrayContaining([`Created Secret ${names.defaultTlsCaSecret} (a new CA for the members' certificate)`]));
    expect(notes.join('\n')).not.toMatch(/PRIVATE KEY|BEGIN CERTIFICATE/);
    expect(JSON.stringify(workload.status)).not.toMatch(/PRIVATE KEY|BEGIN CERTIFICATE/);
  });

  it('shows openssl s_client a certificate chain to the workload CA, with every member and client Service name', async () => {
    for (const pod of pods) {
      const ordinal = Number(pod.metadata?.name?.split('-').pop());
      const host = memberHost(name, namespace, ordinal);
      const { stdout } = await run('bash', [
        '-c',
        `openssl s_client -connect "$0" -CAfile "$1" -verify_return_error -verify_hostname "$2" -showcerts </dev/null 2>&1`,
        `${pod.status?.podIP ?? ''}:${String(ZOOKEEPER_PORTS.secureClient)}`,
        caFile,
        host,
      ]);
      expect(stdout).toContain('Verification: OK');
      // openssl names the certificate's name that matched the member's: the wildcard under the headless Service.
      expect(stdout).toContain(`Verified peername: *.${names.headlessService}.${namespace}.svc.cluster.local`);
      const served = new X509Certificate(stdout.slice(stdout.indexOf('-----BEGIN CERTIFICATE-----')));
      // The CA's name carries the time it was made: a renewed CA has a subject of its own (ZooKeeper trusts one CA per subject).
      expect(served.issuer).toMatch(new RegExp(`^CN=zk-oam CA of ZookeeperWorkload ${namespace}/${name} \\d{4}-\\d{2}-\\d{2}T[\\d:.]+Z$`));
      expect(served.verify(new X509Certificate(await readFile(caFile)).publicKey)).toBe(true);
      expect(served.subjectAltName?.split(', ')).toEqual([
        `DNS:*.${names.headlessService}.${namespace}`,
        `DNS:*.${names.headlessService}.${namespace}.svc`,
        `DNS:*.${names.headlessService}.${namespace}.svc.cluster.local`,
        `DNS:${names.clientService}`,
        `DNS:${names.clientService}.${namespace}`,
        `DNS:${names.clientService}.${namespace}.svc`,
        `DNS:${names.clientService}.${namespace}.svc.cluster.local`,
      ]);
      expect(new Date(served.validTo).getTime() - new Date(served.validFrom).getTime()).toBe(24 * 3_600_000 + 5 * 60_000);
    }
  });

  it('refuses plain text on the secure port, and opens no plain client port', async () => {
    for (const pod of pods) {
      const ip = pod.status?.podIP ?? '';
      const secure = await plainText(ip, ZOOKEEPER_PORTS.secureClient);
      expect(secure.answer).not.toContain('Zookeeper version');
      expect(secure.answer).not.toContain('Mode:');
      expect(await plainText(ip, ZOOKEEPER_PORTS.client)).toEqual({ answer: '', error: 'ECONNREFUSED' });
    }
  });

  it("lets ZooKeeper's Java client write and read a znode over TLS", async () => {
    const servers = memberServers(pods, { namespace, workload: name }, ZOOKEEPER_PORTS.secureClient);
    const tlsClient = [
      '-Dzookeeper.clientCnxnSocket=org.apache.zookeeper.ClientCnxnSocketNetty',
      '-Dzookeeper.client.secure=true',
      `-Dzookeeper.ssl.trustStore.location=${caFile}`,
      '-Dzookeeper.ssl.trustStore.type=PEM',
    ];
    const zkCli = (server: string, ...command: string[]): Promise<{ ok: boolean; output: string }> => runZkCli(bed.resolvConf, tlsClient, server, ...command);
    const value = `written-over-tls-${String(Date.now())}`;
    const created = await zkCli(servers.join(','), 'create', '/tls-check', value);
    expect(created).toMatchObject({ ok: true, output: expect.stringContaining('Created /tls-check') as unknown });
    for (const server of servers) {
      const read = await zkCli(server, 'get', '/tls-check');
      expect(read).toMatchObject({ ok: true, output: expect.stringContaining(value) as unknown });
    }
  });

  it("opens the superuser's admin session over TLS (ZooKeeper's protocol on a TLS socket): proves a write and reaches reconfig; a wrong password gets ZNOAUTH", async () => {
    const secret = await client.core.readNamespacedSecret({ namespace, name: names.defaultSuperuserSecret });
    const password = Buffer.from(secret.data?.[SUPERUSER_SECRET_KEYS.password] ?? '', 'base64').toString('utf8');
    const access = { port: ZOOKEEPER_PORTS.secureClient, tls: { ca: await readFile(caFile, 'utf8'), serverName: memberServerName(name, namespace) } };
    const targets = pods.map((pod) => ({ pod: pod.metadata?.name ?? '', myid: myidOfPod(pod.metadata?.name ?? '', names.statefulSet) ?? 0, ip: pod.status?.podIP ?? '' }));
    const connectAdmin = adminConnector(10_000, new HandleGate());
    const removeMember3 = (admin: EnsembleAdmin, fromVersion: Zxid): Promise<unknown> => admin.reconfig({ joining: [], leaving: [3] }, fromVersion);
    const observed = await observeEnsemble(targets, { clientPort: access.port, tls: access.tls, timeoutMs: 3_000 });
    const version = observed.committed.ok ? observed.committed.config.version : zxidFromValue(0n);

    const admin = await connectAdmin(targets, access, password);
    try {
      const confirmed = await admin.confirmByWrite();
      expect(confirmed.path).toBe(CONFIRM_ZNODE);
      expect(confirmed.zxid).toBeGreaterThan(0n);
      // Planned from a version the config never had: the reconfig reaches ZooKeeper and is refused, nothing changes.
      await expect(removeMember3(admin, zxidFromValue(1n))).rejects.toMatchObject({ codeName: 'ZBADVERSION' });
    } finally {
      admin.close();
    }
    const intruder = await connectAdmin(targets, access, `${password}-wrong`);
    try {
      // From the committed version, so only the superuser check can refuse it.
      await expect(removeMember3(intruder, version)).rejects.toMatchObject({ codeName: 'ZNOAUTH' });
    } finally {
      intruder.close();
    }
  });

  it('issues a new member certificate when its Secret is lost; the members restart onto it (RollingUpdate) and the ensemble is Ready again', async () => {
    const before = await client.core.readNamespacedSecret({ namespace, name: names.tlsSecret });
    const oldCertificate = new X509Certificate(Buffer.from(before.data?.[TLS_SECRET_KEYS.certificate] ?? '', 'base64'));
    await client.core.deleteNamespacedSecret({ namespace, name: names.tlsSecret });

    const started = Date.now();
    await waitFor(
      'every member replaced onto the new certificate, and the ensemble Ready',
      async () => ({ workload: await client.get(namespace, name), pods: await memberPods() }),
      ({ workload, pods: current }) =>
        healthy(workload) &&
        current.length === 3 &&
        // The workload's status can still show the members from before the last one was replaced; the pods say it is back.
        current.every(podReady) &&
        current.every((pod) => pod.metadata?.annotations?.[CERTIFICATE_ANNOTATION] !== oldCertificate.fingerprint256 && !pods.some((old) => old.metadata?.uid === pod.metadata?.uid)),
      ENSEMBLE_TIMEOUT_MS,
    );
    console.log(`members restarted onto the new certificate and Ready ${String(Math.round((Date.now() - started) / 1000))} s after the Secret was deleted`);
    const after = await client.core.readNamespacedSecret({ namespace, name: names.tlsSecret });
    const newCertificate = new X509Certificate(Buffer.from(after.data?.[TLS_SECRET_KEYS.certificate] ?? '', 'base64'));
    expect(newCertificate.serialNumber).not.toBe(oldCertificate.serialNumber);
    // The same CA: members on the old and the new certificate trust each other during the roll.
    expect(Buffer.from(after.data?.[TLS_SECRET_KEYS.ca] ?? '', 'base64').equals(Buffer.from(before.data?.[TLS_SECRET_KEYS.ca] ?? '', 'base64'))).toBe(true);
    pods = await memberPods();
    for (const pod of pods) {
      const { stdout } = await run('bash', ['-c', 'openssl s_client -connect "$0" -CAfile "$1" -verify_return_error </dev/null', `${pod.status?.podIP ?? ''}:${String(ZOOKEEPER_PORTS.secureClient)}`, caFile]);
      expect(new X509Certificate(stdout.slice(stdout.indexOf('-----BEGIN CERTIFICATE-----'))).serialNumber).toBe(newCertificate.serialNumber);
    }
    const notes = eventSentences(await eventsAbout(client, namespace, name));
    expect(notes.some((note) => note.startsWith(`Created Secret ${names.tlsSecret} (member certificate until `) && note.endsWith(': no certificate yet)'))).toBe(true);
  });

  it('never writes a key or certificate to its log', async () => {
    const log = await readFile(suite.controller().logFile, 'utf8');
    expect(log.length).toBeGreaterThan(0);
    // PEM markers, and their base64 form (a Secret's data, were one logged).
    expect(log).not.toMatch(/PRIVATE KEY|BEGIN CERTIFICATE|LS0tLS1CRUdJTi/);
  });

  it('refuses turning TLS off, bringing the plain client port back, and a move to cert-manager: none is built', async () => {
    const oneWay = /tls.quorum can be turned on but not off, and tls.client can only go from Disabled to Alongside/;
    await expect(client.patch(namespace, name, { spec: { tls: { client: 'Alongside' } } })).rejects.toThrow(oneWay);
    await expect(client.patch(namespace, name, { spec: { tls: { quorum: false } } })).rejects.toThrow(oneWay);
    await expect(client.patch(namespace, name, { spec: { tls: { certificates: { issuerRef: { name: 'ca-issuer' } } } } })).rejects.toThrow(
      /issuerRef cannot be set or removed once the workload uses TLS/,
    );
  });
});

describe('a TLS workload whose CA Secret does not exist', () => {
  it('gets Ready=False naming the Secret and the problem, a Warning Event, and no children', async () => {
    const broken = 'zk-missing-ca';
    await client.create(namespace, broken, bedWorkloadSpec({ tls: { quorum: true, certificates: { caSecretRef: { name: 'no-such-ca' } } } }));
    const workload = await waitFor('Ready=False TlsCaSecretInvalid', () => client.get(namespace, broken), (seen) => condition(seen, 'Ready')?.reason === 'TlsCaSecretInvalid', 60_000);
    expect(condition(workload, 'Ready')).toMatchObject({
      status: 'False',
      message: 'TLS CA Secret no-such-ca named in spec.tls.certificates.caSecretRef does not exist',
    });
    const warnings = (await eventsAbout(client, namespace, broken)).filter((event) => event.type === 'Warning');
    expect(warnings.map((event) => [event.reason, event.note])).toContainEqual(['TlsCaSecretInvalid', 'TLS CA Secret no-such-ca named in spec.tls.certificates.caSecretRef does not exist']);
    const statefulSets = await client.core.listNamespacedPod({ namespace, labelSelector: memberSelectorOf(broken) });
    expect(statefulSets.items).toEqual([]);
    await client.delete(namespace, broken);
  });
});
