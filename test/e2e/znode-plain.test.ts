// ZookeeperZnodes on an ensemble without client authentication, on real ZooKeeper 3.8 and its own Java client: a znode
// gets a path and a connect string a client writes through as it is; bad input is refused by the CRD or reported on the
// object, never half-done (a path under another's is a PathConflict, and its deletion leaves the other's path alone);
// deleting a znode removes its path, under Retain keeps it; a znode of another namespace is refused until the
// workload's spec.znodes.namespaceSelector selects that namespace's labels, then served there; and a znode whose
// workload is missing says so and does not hold its namespace's deletion past the bounded wait.
import { DISCOVERY_CONFIG_KEYS, DISCOVERY_SECRET_KEYS } from '@zk-oam/apis';
import { describe, expect, it } from 'vitest';
import { bedWorkloadSpec, eventsAbout, waitFor } from '../src/controllers/index.js';
import { workerBed } from '../src/worker-bed.js';
import { readDiscovery, tenantZkCli, useZnodeController, znodeCondition, type Discovery } from './znode-support.js';

const bed = workerBed();
/** Short, so that the namespace deletion below is quick; the default is a minute. */
const RELEASE_AFTER_MS = 10_000;
const suite = useZnodeController(bed, { namespacePrefix: 'znode-plain', env: { RELEASE_WITHOUT_WORKLOAD_AFTER_MS: String(RELEASE_AFTER_MS) } });
const { client, znodes, namespace } = suite;
const WORKLOAD = 'zk';
const TIMEOUT_MS = 300_000;

/** A client given the client Service's host:port and no path: it sees the whole tree. */
function rootClient(tenant: Discovery): Discovery {
  return { config: { [DISCOVERY_CONFIG_KEYS.connectString]: tenant.config[DISCOVERY_CONFIG_KEYS.hosts] ?? '' }, secret: {} };
}

const ready = (name: string) =>
  waitFor(`${name} Ready`, () => znodes.get(namespace, name), (seen) => znodeCondition(seen, 'Ready')?.status === 'True', TIMEOUT_MS);

describe('znodes on a plain-text ensemble', () => {
  let plain: Discovery | undefined;
  const discovery = (): Discovery => {
    if (plain === undefined) throw new Error('no discovery yet');
    return plain;
  };

  it('gives a znode a path and a connect string a client writes through as it is', async () => {
    const started = Date.now();
    await client.create(namespace, WORKLOAD, bedWorkloadSpec({ replicas: 1 }));
    await znodes.create(namespace, 'app', { workloadRef: { name: WORKLOAD } });
    const found = await ready('app');
    console.log(`znode Ready ${String(Math.round((Date.now() - started) / 1000))} s after the workload's creation`);
    const path = found.status?.path ?? '';
    expect(path).toBe(`/znode-${found.metadata.uid ?? ''}`);
    expect(found.status?.principal).toBeUndefined();
    plain = await readDiscovery(client, namespace, 'app');
    expect(plain.config[DISCOVERY_CONFIG_KEYS.connectString]).toBe(`zk-client.${namespace}.svc.cluster.local:2181${path}`);
    expect(plain.secret).toEqual({});

    expect((await tenantZkCli(bed, plain, ['create', '/hello', 'world'])).output).toContain('Created /hello');
    expect((await tenantZkCli(bed, rootClient(plain), ['get', `${path}/hello`])).output).toContain('world');
    expect((await tenantZkCli(bed, plain, ['getAcl', '/'])).output).toMatch(/'world,'anyone\s*\n: cdrwa/);
    expect(plain.secret[DISCOVERY_SECRET_KEYS.jaas]).toBeUndefined();
  }, TIMEOUT_MS + 60_000);

  it('refuses a path of the wrong form in the CRD, and reports a path under another znode\'s as a PathConflict', async () => {
    for (const path of ['/a/../b', '/a/./b', '/a/', 'relative', '/zookeeper/config']) {
      await expect(znodes.create(namespace, 'bad', { workloadRef: { name: WORKLOAD }, path }), path).rejects.toThrow();
    }
    await znodes.create(namespace, 'kept', { workloadRef: { name: WORKLOAD }, path: '/shared', reclaimPolicy: 'Retain' });
    await ready('kept');
    await znodes.create(namespace, 'inner', { workloadRef: { name: WORKLOAD }, path: '/shared/inner' });
    const refused = await waitFor('inner in conflict', () => znodes.get(namespace, 'inner'), (seen) => znodeCondition(seen, 'Ready')?.reason === 'PathConflict', 60_000);
    expect(znodeCondition(refused, 'Ready')?.message).toContain('claimed first by ZookeeperZnode kept');
    expect(refused.status?.path).toBeUndefined();
    const warnings = (await eventsAbout(client, namespace, 'inner', 'ZookeeperZnode')).filter((event) => event.type === 'Warning');
    expect(warnings.map((event) => event.reason)).toContain('PathConflict');
    await expect(client.core.readNamespacedConfigMap({ namespace, name: 'inner' })).rejects.toThrow();
    expect((await tenantZkCli(bed, rootClient(discovery()), ['stat', '/shared/inner'])).output).toContain('Node does not exist');
  }, 120_000);

  it('removes the path of a deleted znode with everything under it, keeps it under Retain, and never touches a path it did not own', async () => {
    const path = (await znodes.get(namespace, 'app')).status?.path ?? '';
    await znodes.delete(namespace, 'app');
    await waitFor('app gone', () => znodes.gone(namespace, 'app'), (gone) => gone, 60_000);
    const root = rootClient(discovery());
    expect((await tenantZkCli(bed, root, ['stat', path])).output).toContain('Node does not exist');

    await znodes.delete(namespace, 'inner');
    await waitFor('inner gone', () => znodes.gone(namespace, 'inner'), (gone) => gone, 60_000);
    await znodes.delete(namespace, 'kept');
    await waitFor('kept gone', () => znodes.gone(namespace, 'kept'), (gone) => gone, 60_000);
    expect((await tenantZkCli(bed, root, ['stat', '/shared'])).ok).toBe(true);
    const reasons = async (name: string) => (await eventsAbout(client, namespace, name, 'ZookeeperZnode')).map((event) => event.reason);
    expect(await reasons('app')).toContain('PathDeleted');
    expect(await reasons('kept')).toContain('PathRetained');
    expect(await reasons('inner')).toContain('ReleasedWithoutCleanup');
  }, 240_000);
});

describe('a znode in another namespace than its workload', () => {
  const tenants = `${namespace}-tenants`;
  const remote = { workloadRef: { name: WORKLOAD, namespace }, path: '/remote' };
  const condition = () => znodes.get(tenants, 'remote').then((seen) => znodeCondition(seen, 'Ready'));

  it('is refused, with nothing made, until the workload admits its namespace; the CRD refuses a malformed selector', async () => {
    await client.createNamespace(tenants);
    await znodes.create(tenants, 'remote', remote);
    const refused = await waitFor('remote refused', condition, (seen) => seen?.reason === 'WorkloadNotShared', 60_000);
    expect(refused?.message).toBe(`ZookeeperWorkload ${namespace}/${WORKLOAD} admits ZookeeperZnodes of its own namespace only: it has no spec.znodes.namespaceSelector; nothing is done for this znode`);
    const warnings = (await eventsAbout(client, tenants, 'remote', 'ZookeeperZnode')).filter((event) => event.type === 'Warning');
    expect(warnings.map((event) => event.reason)).toEqual(['WorkloadNotShared']);
    await expect(client.core.readNamespacedConfigMap({ namespace: tenants, name: 'remote' })).rejects.toThrow();

    const malformed = { spec: { znodes: { namespaceSelector: { matchExpressions: [{ key: 'team', operator: 'In' }] } } } };
    await expect(client.patch(namespace, WORKLOAD, malformed)).rejects.toThrow(/values must be non-empty for In and NotIn/);
    await client.patch(namespace, WORKLOAD, { spec: { znodes: { namespaceSelector: { matchLabels: { 'zk-oam.test/tenant': 'yes' } } } } });
    const unselected = await waitFor('refused by the selector', condition, (seen) => seen?.message.includes('does not select') === true, 60_000);
    expect(unselected?.reason).toBe('WorkloadNotShared');
    expect((await tenantZkCli(bed, { config: { [DISCOVERY_CONFIG_KEYS.connectString]: `zk-client.${namespace}.svc.cluster.local:2181` }, secret: {} }, ['stat', '/remote'])).output).toContain('Node does not exist');
  }, 120_000);

  it("is served on the workload once its namespace carries the selected label, and cleaned up when deleted", async () => {
    const labelled = await client.core.readNamespace({ name: tenants });
    labelled.metadata = { ...labelled.metadata, labels: { ...labelled.metadata?.labels, 'zk-oam.test/tenant': 'yes' } };
    await client.core.replaceNamespace({ name: tenants, body: labelled });
    await waitFor('remote Ready', condition, (seen) => seen?.status === 'True', 60_000);
    const discovery = await readDiscovery(client, tenants, 'remote');
    expect(discovery.config[DISCOVERY_CONFIG_KEYS.connectString]).toBe(`zk-client.${namespace}.svc.cluster.local:2181/remote`);
    expect((await tenantZkCli(bed, discovery, ['create', '/from-tenants', 'x'])).output).toContain('Created /from-tenants');

    await znodes.delete(tenants, 'remote');
    await waitFor('remote gone', () => znodes.gone(tenants, 'remote'), (gone) => gone, 60_000);
    expect((await eventsAbout(client, tenants, 'remote', 'ZookeeperZnode')).map((event) => event.reason)).toContain('PathDeleted');
    expect((await tenantZkCli(bed, rootClient(discovery), ['stat', '/remote'])).output).toContain('Node does not exist');
    await client.deleteNamespace(tenants);
  }, 120_000);
});

describe('a znode whose workload is missing', () => {
  it('reports WorkloadNotFound, and does not hold its namespace\'s deletion past the bounded wait', async () => {
    const orphans = `${namespace}-orphan`;
    await client.createNamespace(orphans);
    await znodes.create(orphans, 'orphan', { workloadRef: { name: 'no-such-workload' } });
    const found = await waitFor('WorkloadNotFound', () => znodes.get(orphans, 'orphan'), (seen) => znodeCondition(seen, 'Ready')?.reason === 'WorkloadNotFound', 60_000);
    expect(znodeCondition(found, 'Ready')).toMatchObject({ status: 'False', message: `ZookeeperWorkload no-such-workload does not exist in namespace ${orphans}` });
    expect(found.metadata.finalizers).toContain('znode.zookeeper.zkoam.dev/path');

    const started = Date.now();
    await client.deleteNamespace(orphans);
    await waitFor(
      'the namespace gone',
      () => client.core.readNamespace({ name: orphans }).then(() => false, () => true),
      (gone) => gone,
      RELEASE_AFTER_MS + 90_000,
    );
    const seconds = (Date.now() - started) / 1000;
    console.log(`namespace with an orphan znode deleted in ${seconds.toFixed(1)} s (bounded wait ${String(RELEASE_AFTER_MS / 1000)} s)`);
    expect(seconds).toBeGreaterThanOrEqual(RELEASE_AFTER_MS / 1000 - 1);
  }, RELEASE_AFTER_MS + 120_000);
});
