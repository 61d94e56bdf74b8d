// Client authentication by certificate (the x509 provider) on the bed, real ZooKeeper 3.8 and its own Java client: an
// ensemble trusting a client CA the test makes with openssl becomes Ready; alice (a certificate of that CA) creates a
// znode with the ACL x509:CN=alice:cdrwa; a TLS client without a certificate gets in unauthenticated and is refused by
// the ACL, as is bob (another certificate of that CA); mallory, whose certificate another CA signed, gets no identity;
// the superuser's admin session (no certificate) still works. A client CA Secret holding both CAs restarts the members
// onto it, and then mallory is authenticated too (ZooKeeper's PEM trust store loads every certificate of the file). No
// key or certificate in Events, status or the controller's log. The CRD refuses x509 without a secure port. Then a
// client CA Secret that is missing, lacks ca.crt, or holds a certificate that does not parse: a condition naming the
// Secret and the key, and no pods. The controller has no timed look during the file: it sees each change of the client
// CA Secret, good or bad, through its watch on the Secret.
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { V1Pod } from '@kubernetes/client-node';
import { derivedNames, memberSelectorOf, memberServerName, myidOfPod, SUPERUSER_SECRET_KEYS, TLS_SECRET_KEYS, ZOOKEEPER_PORTS, type ZookeeperWorkload } from '@zk-oam/apis';
import { CLIENT_CA_ANNOTATION } from '@zk-oam/workload';
import { adminConnector, CONFIRM_ZNODE, HandleGate } from '@zk-oam/zookeeper';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runZkCli } from '../src/zookeeper-jvm/index.js';
import { bedWorkloadSpec, condition, eventsAbout, isReady, useWorkloadController, waitFor } from '../src/controllers/index.js';
import { workerBed } from '../src/worker-bed.js';
import { appsApi } from './rolling-scenario.js';
import { makeCa, makeClient, memberServers } from './tls-fixtures.js';

const bed = workerBed();
/**
 * An hour between timed looks of a Ready ensemble, longer than the file runs: the members restarted onto a changed
 * client CA Secret show that the controller saw the change through its watch on the Secret.
 */
const IDLE_PERIOD_MS = 3_600_000;
const suite = useWorkloadController(bed, { namespacePrefix: 'wl-x509', env: { IDLE_PERIOD_MS: String(IDLE_PERIOD_MS) } });
const { client, namespace } = suite;
const name = 'zkx';
const names = derivedNames(name);
const CLIENT_CA_SECRET = 'zk-client-ca';
const apps = appsApi(bed);
const ENSEMBLE_TIMEOUT_MS = 420_000;

async function memberPods(owner = name): Promise<V1Pod[]> {
  return (await client.core.listNamespacedPod({ namespace, labelSelector: memberSelectorOf(owner) })).items;
}

function healthy(workload: ZookeeperWorkload): boolean {
  const status = workload.status;
  return isReady(workload) && status?.leader !== undefined && status.members?.length === 3 && status.members.every((member) => member.synced);
}

describe('an ensemble whose clients authenticate by certificate', () => {
  let dir: string;
  let servers: string;
  let workloadCa: string;
  const keyStores = { alice: '', bob: '', mallory: '' };

  /** zkCli over TLS trusting the workload CA, presenting the key store given, or no certificate. */
  function zkCli(keyStore: string | undefined, ...command: string[]): Promise<{ ok: boolean; output: string }> {
    const options = [
      '-Dzookeeper.clientCnxnSocket=org.apache.zookeeper.ClientCnxnSocketNetty',
      '-Dzookeeper.client.secure=true',
      `-Dzookeeper.ssl.trustStore.location=${workloadCa}`,
      '-Dzookeeper.ssl.trustStore.type=PEM',
      ...(keyStore === undefined ? [] : [`-Dzookeeper.ssl.keyStore.location=${keyStore}`, '-Dzookeeper.ssl.keyStore.type=PEM']),
    ];
    return runZkCli(bed.resolvConf, options, servers, ...command);
  }

  /** The x509 ids the members' ZooKeeper logged as authenticated ("Authenticated Id '<id>' for Scheme 'x509'"). */
  async function authenticatedIds(): Promise<string[]> {
    const logs = await Promise.all((await memberPods()).map((pod) => readFile(join(bed.dir, 'agent', 'pods', `${namespace}_${pod.metadata?.name ?? ''}`, 'container.log'), 'utf8')));
    return [...logs.join('\n').matchAll(/Authenticated Id '([^']*)' for Scheme 'x509'/g)].map((match) => match[1] ?? '');
  }

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'zk-oam-x509-'));
    await makeCa(dir, 'clients', '/O=zk-oam test/CN=zk-oam test clients');
    await makeCa(dir, 'others', '/O=zk-oam test/CN=zk-oam other clients');
    keyStores.alice = await makeClient(dir, 'clients', 'alice');
    keyStores.bob = await makeClient(dir, 'clients', 'bob');
    keyStores.mallory = await makeClient(dir, 'others', 'mallory');
    const caCrt = await readFile(join(dir, 'clients.crt'), 'utf8');
    await client.core.createNamespacedSecret({ namespace, body: { metadata: { name: CLIENT_CA_SECRET }, stringData: { 'ca.crt': caCrt } } });
    await client.create(
      namespace,
      name,
      bedWorkloadSpec({ tls: { quorum: true, client: 'Only' }, authentication: { x509: { clientCaSecretRef: { name: CLIENT_CA_SECRET } } } }),
    );
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
    await client.delete(namespace, name);
  });

  it('becomes Ready, observed over TLS, with the client CA mounted and its digest on every member', async () => {
    const started = Date.now();
    await waitFor('the x509 ensemble Ready with 3 synced members', () => client.get(namespace, name), healthy, ENSEMBLE_TIMEOUT_MS);
    console.log(`x509 ensemble Ready ${String(Math.round((Date.now() - started) / 1000))} s after creation`);
    const configMap = await client.core.readNamespacedConfigMap({ namespace, name: names.configMap });
    expect(configMap.data?.['zoo.cfg']).toContain('authProvider.x509=org.apache.zookeeper.server.auth.X509AuthenticationProvider');
    expect(configMap.data?.['zoo.cfg']).toContain('ssl.clientAuth=want');
    const pods = await memberPods();
    servers = memberServers(pods, { namespace, workload: name }, ZOOKEEPER_PORTS.secureClient).join(',');
    const digest = createHash('sha256').update(await readFile(join(dir, 'clients.crt'))).digest('hex');
    expect(pods.map((pod) => pod.metadata?.annotations?.[CLIENT_CA_ANNOTATION])).toEqual([digest, digest, digest]);
    const secret = await client.core.readNamespacedSecret({ namespace, name: names.tlsSecret });
    workloadCa = join(dir, 'workload-ca.crt');
    await writeFile(workloadCa, Buffer.from(secret.data?.[TLS_SECRET_KEYS.ca] ?? '', 'base64'));
  }, ENSEMBLE_TIMEOUT_MS + 30_000);

  it("lets alice create a znode with the ACL x509:CN=alice:cdrwa; no one else creates under it (ZooKeeper's Java client)", async () => {
    const created = await zkCli(keyStores.alice, 'create', '/owned', 'alice-data', 'x509:CN=alice:cdrwa');
    expect(created.output).toContain('Created /owned');
    expect((await zkCli(keyStores.alice, 'getAcl', '/owned')).output).toMatch(/'x509,'CN=alice\s*\n: cdrwa/);

    const anonymous = await zkCli(undefined, 'create', '/owned/anonymous', 'x');
    expect(anonymous).toMatchObject({ ok: false, output: expect.stringContaining('Insufficient permission : /owned/anonymous') as unknown });
    const bob = await zkCli(keyStores.bob, 'create', '/owned/bob', 'x');
    expect(bob).toMatchObject({ ok: false, output: expect.stringContaining('Insufficient permission : /owned/bob') as unknown });
    // The members name the CAs they trust in the handshake; Java's key manager then offers no certificate of another
    // CA, and the session goes on without an identity.
    const mallory = await zkCli(keyStores.mallory, 'create', '/owned/mallory', 'x');
    expect(mallory).toMatchObject({ ok: false, output: expect.stringContaining('Insufficient permission : /owned/mallory') as unknown });
    const identities = await authenticatedIds();
    expect(identities).toContain('CN=alice');
    expect(identities).toContain('CN=bob');
    expect(identities).not.toContain('CN=mallory');

    expect((await zkCli(keyStores.alice, 'create', '/owned/alice', 'x')).output).toContain('Created /owned/alice');
    expect((await zkCli(keyStores.alice, 'ls', '/owned')).output).toContain('[alice]');
  }, 300_000);

  it("opens the superuser's admin session over TLS without a client certificate, and proves a write", async () => {
    const secret = await client.core.readNamespacedSecret({ namespace, name: names.defaultSuperuserSecret });
    const password = Buffer.from(secret.data?.[SUPERUSER_SECRET_KEYS.password] ?? '', 'base64').toString('utf8');
    const access = { port: ZOOKEEPER_PORTS.secureClient, tls: { ca: await readFile(workloadCa, 'utf8'), serverName: memberServerName(name, namespace) } };
    const targets = (await memberPods()).map((pod) => ({ pod: pod.metadata?.name ?? '', myid: myidOfPod(pod.metadata?.name ?? '', names.statefulSet) ?? 0, ip: pod.status?.podIP ?? '' }));
    const admin = await adminConnector(10_000, new HandleGate())(targets, access, password);
    try {
      const confirmed = await admin.confirmByWrite();
      expect(confirmed.path).toBe(CONFIRM_ZNODE);
    } finally {
      admin.close();
    }
  });

  it('restarts the members onto a client CA Secret holding both CAs, seen through its watch; then mallory is authenticated as x509:CN=mallory', async () => {
    const before = (await memberPods()).map((pod) => pod.metadata?.uid);
    const bundle = `${await readFile(join(dir, 'clients.crt'), 'utf8')}${await readFile(join(dir, 'others.crt'), 'utf8')}`;
    const digest = createHash('sha256').update(bundle).digest('hex');
    const started = Date.now();
    await client.core.replaceNamespacedSecret({ namespace, name: CLIENT_CA_SECRET, body: { metadata: { name: CLIENT_CA_SECRET }, stringData: { 'ca.crt': bundle } } });
    await waitFor(
      'the StatefulSet template on the two CAs, the Secret change seen through its watch (no timed look comes in the hour)',
      async () => (await apps.readNamespacedStatefulSet({ namespace, name: names.statefulSet })).spec?.template.metadata?.annotations?.[CLIENT_CA_ANNOTATION],
      (seen) => seen === digest,
      60_000,
    );
    console.log(`StatefulSet template on the two client CAs ${String(Math.round((Date.now() - started) / 1000))} s after the Secret changed`);
    await waitFor(
      'every member replaced onto the two CAs, and the ensemble Ready',
      async () => ({ workload: await client.get(namespace, name), pods: await memberPods() }),
      ({ workload, pods }) =>
        healthy(workload) && pods.length === 3 && pods.every((pod) => pod.metadata?.annotations?.[CLIENT_CA_ANNOTATION] === digest && !before.includes(pod.metadata?.uid)),
      ENSEMBLE_TIMEOUT_MS,
    );
    console.log(`members restarted onto the two client CAs and Ready ${String(Math.round((Date.now() - started) / 1000))} s after the Secret changed`);
    servers = memberServers(await memberPods(), { namespace, workload: name }, ZOOKEEPER_PORTS.secureClient).join(',');
    const mallory = await zkCli(keyStores.mallory, 'create', '/mallory', 'x', 'x509:CN=mallory:cdrwa');
    expect(mallory.output).toContain('Created /mallory');
    expect((await zkCli(keyStores.alice, 'create', '/mallory/alice', 'x')).output).toContain('Insufficient permission : /mallory/alice');
    expect((await zkCli(keyStores.alice, 'get', '/owned')).output).toContain('alice-data');
  }, ENSEMBLE_TIMEOUT_MS + 120_000);

  it('writes no key or certificate to Events, status or the controller\'s log', async () => {
    const events = JSON.stringify(await eventsAbout(client, namespace, name));
    const status = JSON.stringify((await client.get(namespace, name)).status);
    const log = await readFile(suite.controller().logFile, 'utf8');
    expect(log.length).toBeGreaterThan(0);
    for (const [where, text] of Object.entries({ events, status, log })) {
      // PEM markers, and their base64 form (a Secret's data, were one logged).
      expect({ where, leaked: /PRIVATE KEY|BEGIN CERTIFICATE|LS0tLS1CRUdJTi/.test(text) }).toEqual({ where, leaked: false });
    }
  });
});

describe('the CRD on x509', () => {
  it('refuses x509 without a secure client port, no method at all, and zoo.cfg keys that would fight the rendered ones', async () => {
    const x509 = { clientCaSecretRef: { name: CLIENT_CA_SECRET } };
    await expect(client.create(namespace, 'zkx-refused', bedWorkloadSpec({ authentication: { x509 } }))).rejects.toThrow(/authentication.x509 needs tls.client Alongside or Only/);
    await expect(client.create(namespace, 'zkx-refused', bedWorkloadSpec({ authentication: {} }))).rejects.toThrow(/authentication needs a method: sasl, x509, or both/);
    for (const key of ['ssl.clientAuth', 'ssl.trustStore.location', 'X509AuthenticationProvider.superUser']) {
      const spec = bedWorkloadSpec({ tls: { client: 'Only' }, authentication: { x509 }, config: { additionalConfig: { [key]: 'x' } } });
      await expect(client.create(namespace, 'zkx-refused', spec)).rejects.toThrow(/may not set keys managed by the operator/);
    }
  });
});

describe('a workload whose client CA Secret is unusable', () => {
  const broken = 'zkx-bad-ca';
  const secretName = 'bad-client-ca';
  /**
   * A blocked workload is looked at again by itself only after 5 minutes (WATCHED_SECRET_RETRY_MS); each change of its
   * Secret brings the reconcile back within a second or two through the watch, and this leaves a loaded machine ten
   * times that.
   */
  const REACTION_MS = 20_000;

  afterAll(async () => {
    await client.delete(namespace, broken);
  });

  async function waitMessage(what: string, message: string): Promise<void> {
    const seen = await waitFor(what, () => client.get(namespace, broken), (workload) => condition(workload, 'Ready')?.message === message, REACTION_MS);
    expect(condition(seen, 'Ready')).toMatchObject({ status: 'False', reason: 'AuthenticationSecretInvalid', message });
    const warnings = (await eventsAbout(client, namespace, broken)).filter((event) => event.type === 'Warning');
    expect(warnings.map((event) => [event.reason, event.note])).toContainEqual(['AuthenticationSecretInvalid', message]);
  }

  it('gets Ready=False naming the Secret when it does not exist, lacks ca.crt, or holds a certificate that does not parse; no pods', async () => {
    await client.create(namespace, broken, bedWorkloadSpec({ tls: { client: 'Alongside' }, authentication: { x509: { clientCaSecretRef: { name: secretName } } } }));
    await waitMessage('the condition naming the missing Secret', `client CA Secret ${secretName} named in spec.authentication.x509.clientCaSecretRef does not exist`);

    await client.core.createNamespacedSecret({ namespace, body: { metadata: { name: secretName }, stringData: { 'tls.crt': 'x' } } });
    await waitMessage('the condition naming the missing key', `client CA Secret ${secretName} has no key ca.crt: put there the PEM certificate(s) of the CA that signs client certificates`);

    const garbage = '-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydGlmaWNhdGU=\n-----END CERTIFICATE-----\n';
    await client.core.replaceNamespacedSecret({ namespace, name: secretName, body: { metadata: { name: secretName }, stringData: { 'ca.crt': garbage } } });
    await waitMessage('the condition naming the certificate that does not parse', `client CA Secret ${secretName} holds in ca.crt a certificate that does not parse (certificate 1 of 1)`);

    expect(await memberPods(broken)).toEqual([]);
  }, 120_000);
});
