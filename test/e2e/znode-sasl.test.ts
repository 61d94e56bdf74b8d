// Two tenants of one ensemble with SASL, on real ZooKeeper 3.8 and its own Java client: each ZookeeperZnode gets its
// own path, its own SASL user (added to the workload's users Secret, which restarts the member onto it) and a
// discovery ConfigMap and Secret. Each tenant's client, given only those two objects, writes under its own path and is
// refused under the other's; the paths' ACLs name each tenant alone. No tenant's password in the znode's status or
// Events, or in the controller's log. One member keeps the restarts short.
import { readFile } from 'node:fs/promises';
import { DISCOVERY_CONFIG_KEYS, DISCOVERY_SECRET_KEYS, defaultZnodePath, znodeSaslUser } from '@zk-oam/apis';
import { describe, expect, it } from 'vitest';
import { bedWorkloadSpec, eventsAbout, waitFor } from '../src/controllers/index.js';
import { workerBed } from '../src/worker-bed.js';
import { readDiscovery, tenantZkCli, useZnodeController, znodeCondition, type Discovery } from './znode-support.js';

const bed = workerBed();
const suite = useZnodeController(bed, { namespacePrefix: 'znode-sasl' });
const { client, znodes, namespace } = suite;
const WORKLOAD = 'zk';
const USERS_SECRET = 'zk-users';
const TIMEOUT_MS = 420_000;

describe('two tenants of an ensemble with SASL', () => {
  const tenants: Record<'a' | 'b', Discovery | undefined> = { a: undefined, b: undefined };
  const tenant = (name: 'a' | 'b'): Discovery => {
    const found = tenants[name];
    if (found === undefined) throw new Error(`tenant ${name} has no discovery yet`);
    return found;
  };

  it('gives each its own path, SASL user and discovery objects, and becomes Ready once the member knows both users', async () => {
    const started = Date.now();
    await client.core.createNamespacedSecret({ namespace, body: { metadata: { name: USERS_SECRET }, stringData: { admin: 'admin-password' } } });
    await client.create(namespace, WORKLOAD, bedWorkloadSpec({ replicas: 1, authentication: { sasl: { usersSecretRef: { name: USERS_SECRET } } } }));
    await znodes.create(namespace, 'tenant-a', { workloadRef: { name: WORKLOAD } });
    await znodes.create(namespace, 'tenant-b', { workloadRef: { name: WORKLOAD }, path: '/apps/tenant-b' });
    for (const name of ['tenant-a', 'tenant-b'] as const) {
      const ready = await waitFor(`${name} Ready`, () => znodes.get(namespace, name), (seen) => znodeCondition(seen, 'Ready')?.status === 'True', TIMEOUT_MS);
      expect(znodeCondition(ready, 'Ready')?.reason).toBe('Available');
      expect(znodeCondition(ready, 'Synced')).toMatchObject({ status: 'True', reason: 'Synced' });
    }
    console.log(`two SASL tenants Ready ${String(Math.round((Date.now() - started) / 1000))} s after the workload's creation`);

    const a = await znodes.get(namespace, 'tenant-a');
    const uidA = a.metadata.uid ?? '';
    const hosts = `zk-client.${namespace}.svc.cluster.local:2181`;
    expect(a.status).toMatchObject({ path: defaultZnodePath(uidA), exists: true, connectString: `${hosts}${defaultZnodePath(uidA)}`, principal: `sasl:${znodeSaslUser(uidA)}` });
    expect((await znodes.get(namespace, 'tenant-b')).status).toMatchObject({ path: '/apps/tenant-b', exists: true, connectString: `${hosts}/apps/tenant-b` });

    tenants.a = await readDiscovery(client, namespace, 'tenant-a');
    tenants.b = await readDiscovery(client, namespace, 'tenant-b');
    expect(tenants.a.config).toEqual({
      [DISCOVERY_CONFIG_KEYS.connectString]: `${hosts}${defaultZnodePath(uidA)}`,
      [DISCOVERY_CONFIG_KEYS.hosts]: hosts,
      [DISCOVERY_CONFIG_KEYS.chroot]: defaultZnodePath(uidA),
      [DISCOVERY_CONFIG_KEYS.clientPort]: '2181',
      [DISCOVERY_CONFIG_KEYS.tls]: 'false',
    });
    expect(tenants.a.secret[DISCOVERY_SECRET_KEYS.saslUser]).toBe(znodeSaslUser(uidA));
    expect(tenants.a.secret[DISCOVERY_SECRET_KEYS.saslPassword]).not.toBe(tenants.b.secret[DISCOVERY_SECRET_KEYS.saslPassword]);

    // The person's user stays beside the tenants' in the users Secret.
    const users = await client.core.readNamespacedSecret({ namespace, name: USERS_SECRET });
    expect(Object.keys(users.data ?? {}).sort()).toEqual(['admin', znodeSaslUser(uidA), znodeSaslUser((await znodes.get(namespace, 'tenant-b')).metadata.uid ?? '')].sort());
    const reasons = (await eventsAbout(client, namespace, 'tenant-a', 'ZookeeperZnode')).map((event) => event.reason);
    expect(reasons).toEqual(expect.arrayContaining(['CredentialsCreated', 'DiscoveryPublished']));
    // The second tenant's user restarts the member, which can cut the first tenant's create after ZooKeeper applied it:
    // the controller then finds its path rather than creating it, and says so.
    expect(reasons.filter((reason) => reason === 'PathCreated' || reason === 'PathFound')).toHaveLength(1);
  }, TIMEOUT_MS + 60_000);

  it("lets each tenant's client, with only its discovery objects, write under its own path and refuses it under the other's", async () => {
    const a = tenant('a');
    const b = tenant('b');
    const ownA = await tenantZkCli(bed, a, ['create', '/orders', 'a-data']);
    expect(ownA.output).toContain('state:SaslAuthenticated');
    expect(ownA.output).toContain('Created /orders');
    const ownB = await tenantZkCli(bed, b, ['create', '/ledger', 'b-data']);
    expect(ownB.output).toContain('Created /ledger');
    expect((await tenantZkCli(bed, a, ['get', '/orders'])).output).toContain('a-data');

    const aIntoB = await tenantZkCli(bed, a, ['create', '/intruder', 'x'], { connectString: b.config[DISCOVERY_CONFIG_KEYS.connectString] });
    expect(aIntoB).toMatchObject({ ok: false, output: expect.stringContaining('Insufficient permission') as unknown });
    const bIntoA = await tenantZkCli(bed, b, ['create', '/intruder', 'x'], { connectString: a.config[DISCOVERY_CONFIG_KEYS.connectString] });
    expect(bIntoA).toMatchObject({ ok: false, output: expect.stringContaining('Insufficient permission') as unknown });
    const anonymous = await tenantZkCli(bed, { config: a.config, secret: {} }, ['create', '/anonymous', 'x']);
    expect(anonymous).toMatchObject({ ok: false, output: expect.stringContaining('Insufficient permission') as unknown });

    // The path's ACL names the tenant alone: ZooKeeper lets the operator's superuser past it without an entry.
    const acl = (await tenantZkCli(bed, a, ['getAcl', '/'])).output;
    expect(acl).toContain(`'sasl,'${a.secret[DISCOVERY_SECRET_KEYS.saslUser] ?? ''}`);
    expect(acl).not.toContain('world');
  }, 240_000);

  it("writes no tenant's password to the znodes' status or Events, or to the znode controller's log", async () => {
    const passwords = [tenant('a'), tenant('b')].map((found) => found.secret[DISCOVERY_SECRET_KEYS.saslPassword] ?? '');
    expect(passwords.every((password) => password.length >= 24)).toBe(true);
    const statuses = JSON.stringify([(await znodes.get(namespace, 'tenant-a')).status, (await znodes.get(namespace, 'tenant-b')).status]);
    const events = JSON.stringify([...(await eventsAbout(client, namespace, 'tenant-a', 'ZookeeperZnode')), ...(await eventsAbout(client, namespace, 'tenant-b', 'ZookeeperZnode'))]);
    const log = await readFile(suite.znodeController().logFile, 'utf8');
    expect(log.length).toBeGreaterThan(0);
    for (const [where, text] of Object.entries({ statuses, events, log })) {
      for (const password of passwords) expect({ where, leaked: text.includes(password) }).toEqual({ where, leaked: false });
    }
  });
});
