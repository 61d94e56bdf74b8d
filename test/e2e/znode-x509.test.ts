// ZookeeperZnodes whose tenants bring client certificates, on one member serving clients over TLS only and
// authenticating them by x509, on real ZooKeeper 3.8 and its own Java client: each znode names the subject of its
// tenant's certificate (made here with openssl by the workload's client CA) and gets a path whose ACL names that
// subject alone, and a discovery ConfigMap with the TLS port and the CA. A tenant's client given only that ConfigMap
// and its own certificate writes under its path; another tenant's certificate, or none, is refused there; the
// operator's superuser, whom the ACL does not name, still deletes the path with the znode. A znode that names no
// subject on this workload is refused, with nothing made.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DISCOVERY_CONFIG_KEYS } from '@zk-oam/apis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bedWorkloadSpec, eventsAbout, waitFor } from '../src/controllers/index.js';
import { workerBed } from '../src/worker-bed.js';
import { makeCa, makeClient } from './tls-fixtures.js';
import { readDiscovery, tenantZkCli, useZnodeController, znodeCondition } from './znode-support.js';

const bed = workerBed();
const suite = useZnodeController(bed, { namespacePrefix: 'znode-x509' });
const { client, znodes, namespace } = suite;
const WORKLOAD = 'zk';
const CLIENT_CA_SECRET = 'zk-client-ca';
const TIMEOUT_MS = 300_000;

describe('tenants that bring client certificates, on a TLS ensemble authenticating clients by x509', () => {
  let dir = '';
  const keyStores = { kafka: '', solr: '' };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'zk-oam-znode-x509-'));
    await makeCa(dir, 'clients', '/O=zk-oam test/CN=zk-oam test clients');
    keyStores.kafka = await makeClient(dir, 'clients', 'kafka');
    keyStores.solr = await makeClient(dir, 'clients', 'solr');
    const ca = await readFile(join(dir, 'clients.crt'), 'utf8');
    await client.core.createNamespacedSecret({ namespace, body: { metadata: { name: CLIENT_CA_SECRET }, stringData: { 'ca.crt': ca } } });
    const authentication = { x509: { clientCaSecretRef: { name: CLIENT_CA_SECRET } } };
    await client.create(namespace, WORKLOAD, bedWorkloadSpec({ replicas: 1, tls: { client: 'Only' }, authentication }));
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('gives each znode the subject it names as its principal, and a discovery ConfigMap with the TLS port and CA', async () => {
    const started = Date.now();
    for (const tenant of ['kafka', 'solr']) {
      await znodes.create(namespace, tenant, { workloadRef: { name: WORKLOAD }, path: `/${tenant}`, principal: { x509: { subject: `CN=${tenant}` } } });
    }
    for (const tenant of ['kafka', 'solr']) {
      const ready = await waitFor(`${tenant} Ready`, () => znodes.get(namespace, tenant), (seen) => znodeCondition(seen, 'Ready')?.status === 'True', TIMEOUT_MS);
      expect(ready.status).toMatchObject({ path: `/${tenant}`, exists: true, principal: `x509:CN=${tenant}` });
    }
    console.log(`two x509 tenants Ready ${String(Math.round((Date.now() - started) / 1000))} s after their creation`);
    const kafka = await readDiscovery(client, namespace, 'kafka');
    const hosts = `zk-client.${namespace}.svc.cluster.local:2181`;
    expect(kafka.config).toMatchObject({
      [DISCOVERY_CONFIG_KEYS.connectString]: `${hosts}/kafka`,
      [DISCOVERY_CONFIG_KEYS.tls]: 'true',
      [DISCOVERY_CONFIG_KEYS.secureClientPort]: '2181',
    });
    expect(kafka.config[DISCOVERY_CONFIG_KEYS.clientPort]).toBeUndefined();
    expect(kafka.config[DISCOVERY_CONFIG_KEYS.ca]).toContain('-----BEGIN CERTIFICATE-----');
    expect(kafka.secret).toEqual({});
    const reasons = (await eventsAbout(client, namespace, 'kafka', 'ZookeeperZnode')).map((event) => event.reason);
    expect(reasons).toEqual(expect.arrayContaining(['DiscoveryPublished', 'PathCreated']));
  }, TIMEOUT_MS + 60_000);

  it("lets a tenant's client, with its discovery ConfigMap and its own certificate, write under its path, and refuses another's certificate or none", async () => {
    const kafka = await readDiscovery(client, namespace, 'kafka');
    const own = await tenantZkCli(bed, kafka, ['create', '/topics', 'kafka-data'], { keyStore: keyStores.kafka });
    expect(own.output).toContain('Created /topics');
    expect((await tenantZkCli(bed, kafka, ['get', '/topics'], { keyStore: keyStores.kafka })).output).toContain('kafka-data');
    const acl = (await tenantZkCli(bed, kafka, ['getAcl', '/'], { keyStore: keyStores.kafka })).output;
    expect(acl).toContain("'x509,'CN=kafka");
    expect(acl).not.toContain('world');

    const solrIntoKafka = await tenantZkCli(bed, kafka, ['create', '/intruder', 'x'], { keyStore: keyStores.solr });
    expect(solrIntoKafka).toMatchObject({ ok: false, output: expect.stringContaining('Insufficient permission') as unknown });
    const anonymous = await tenantZkCli(bed, kafka, ['create', '/anonymous', 'x']);
    expect(anonymous).toMatchObject({ ok: false, output: expect.stringContaining('Insufficient permission') as unknown });
    const solr = await readDiscovery(client, namespace, 'solr');
    expect((await tenantZkCli(bed, solr, ['create', '/cores', 'x'], { keyStore: keyStores.solr })).output).toContain('Created /cores');
  }, 120_000);

  it("deletes a tenant's path with its znode: the operator's superuser passes the ACL that names the tenant alone", async () => {
    const kafka = await readDiscovery(client, namespace, 'kafka');
    await znodes.delete(namespace, 'kafka');
    await waitFor('kafka gone', () => znodes.gone(namespace, 'kafka'), (gone) => gone, 60_000);
    expect((await eventsAbout(client, namespace, 'kafka', 'ZookeeperZnode')).map((event) => event.reason)).toContain('PathDeleted');
    const root = { config: { ...kafka.config, [DISCOVERY_CONFIG_KEYS.connectString]: kafka.config[DISCOVERY_CONFIG_KEYS.hosts] ?? '' }, secret: {} };
    expect((await tenantZkCli(bed, root, ['stat', '/kafka'], { keyStore: keyStores.solr })).output).toContain('Node does not exist');
  }, 120_000);

  it('refuses a znode that names no subject on a workload that knows clients by certificate alone, making nothing', async () => {
    await znodes.create(namespace, 'nobody', { workloadRef: { name: WORKLOAD } });
    const refused = await waitFor('nobody refused', () => znodes.get(namespace, 'nobody'), (seen) => znodeCondition(seen, 'Ready')?.reason === 'PrincipalMismatch', 60_000);
    expect(znodeCondition(refused, 'Ready')?.message).toContain('spec.principal.x509.subject must name the subject');
    expect(refused.status?.path).toBeUndefined();
    const warnings = (await eventsAbout(client, namespace, 'nobody', 'ZookeeperZnode')).filter((event) => event.type === 'Warning');
    expect(warnings.map((event) => event.reason)).toEqual(['PrincipalMismatch']);
    await expect(client.core.readNamespacedConfigMap({ namespace, name: 'nobody' })).rejects.toThrow();
  }, 120_000);
});
