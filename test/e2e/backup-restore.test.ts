// Restores of a backup into a new ZookeeperWorkload, on real ZooKeeper 3.8 with SASL and a real S3-compatible server
// (VersityGW): a tree of 10,101 znodes, leaves of some branches with sasl ACLs of the workload's users, is backed up by
// the backup controller while a client keeps creating znodes; a new workload restoring it is refused while an object
// of the backup is truncated, backing off between attempts (each downloads the backup again), then while one has a
// flipped byte (the reason in its status, Ready False while its member serves, the client Service with no
// endpoints), and, the object put back, restores it: every znode with its
// data and ACL, every znode the writer had acknowledged by the backup's zxid and none after. Two ensembles of one member:
// nothing here needs three.
import { DiscoveryV1Api } from '@kubernetes/client-node';
import { ZOOKEEPER_BACKUP, zookeeperBackupSchema, type RestoreStatus, type ZookeeperBackup, type ZookeeperBackupInput, type ZookeeperWorkload } from '@zk-oam/apis';
import { PooledKubeConfig } from '@zk-oam/runtime';
import { describe, expect, it } from 'vitest';
import { bedWorkloadSpec, CustomObjects, eventsAbout, useWorkloadController, waitFor } from '../src/controllers/index.js';
import { workerBed } from '../src/worker-bed.js';
import { loadTree, OPEN_ACL, startWriter, TREE, TREE_ZNODES, treeData, treeOf, useBackupBed, type AclEntry } from './backup-support.js';

const bed = workerBed();
const suite = useWorkloadController(bed, { namespacePrefix: 'restore', env: { IDLE_PERIOD_MS: '2000' } });
const { client, namespace } = suite;
const SOURCE = 'source';
const RESTORED = 'restored';
const BUCKET = 'backups';
const USERS_SECRET = 'zk-users';
const ENSEMBLE_TIMEOUT_MS = 420_000;
/** Leaves of branches 0, 3, 6, ... are alice's alone; of 1, 4, 7, ... bob may read them and alice do anything. */
const leafAcl = (branch: number): readonly AclEntry[] =>
  branch % 3 === 0
    ? [{ perms: 31, scheme: 'sasl', id: 'alice' }]
    : branch % 3 === 1
      ? [
          { perms: 31, scheme: 'sasl', id: 'alice' },
          { perms: 1, scheme: 'sasl', id: 'bob' },
        ]
      : OPEN_ACL;

const backups = new CustomObjects(bed, ZOOKEEPER_BACKUP, zookeeperBackupSchema);
const kubeConfig = new PooledKubeConfig();
kubeConfig.loadFromFile(bed.kubeconfig);
const discovery = kubeConfig.makeApiClient(DiscoveryV1Api);
const s3 = useBackupBed(bed, BUCKET);

/** The S3 target under `prefix`, as a ZookeeperBackup and a restore both name it. */
function target(prefix: string): { s3: NonNullable<NonNullable<ZookeeperBackupInput['spec']>['target']['s3']> } {
  return { s3: { endpoint: s3.server.endpoint, bucket: BUCKET, prefix, credentialsSecretRef: { name: 's3' } } };
}

async function memberIp(workload: string): Promise<string> {
  const pod = await client.core.readNamespacedPod({ namespace, name: `${workload}-0` });
  return pod.status?.podIP ?? '';
}

const ready = (workload: ZookeeperWorkload): { status: string; reason: string; message: string } | undefined =>
  workload.status?.conditions?.find((condition) => condition.type === 'Ready');

/** The ready addresses of the client Service's EndpointSlices. */
async function clientEndpoints(workload: string): Promise<string[]> {
  const { items } = await discovery.listNamespacedEndpointSlice({ namespace, labelSelector: `kubernetes.io/service-name=${workload}-client` });
  return items.flatMap((slice) => (slice.endpoints ?? []).filter((endpoint) => endpoint.conditions?.ready === true).flatMap((endpoint) => endpoint.addresses));
}

/** How often a Warning of `reason` whose note says `saying` was recorded about a workload: its repeats are its series' count. */
async function warningsCounted(workload: string, reason: string, saying: string): Promise<number> {
  const events = await eventsAbout(client, namespace, workload);
  const matching = events.filter((event) => event.type === 'Warning' && event.reason === reason && (event.note?.includes(saying) ?? false));
  return matching.reduce((sum, event) => sum + (event.series?.count ?? 1), 0);
}

/**
 * Each attempt of a refused restore downloads the backup again and bumps the refusal's Warning (its series count).
 * Backing off 5 s, 10 s, 20 s, ... (at most 5 minutes, jittered by 20 %), n attempts take at least 5 s × (2^(n-1) - 1);
 * at every look (2 s here) there would be one a look.
 */
async function expectBackingOff(restore: RestoreStatus | undefined, elapsedMs: number, saying: string): Promise<void> {
  const attempts = await warningsCounted(RESTORED, 'BackupCorrupted', saying);
  const bound = Math.floor(Math.log2(elapsedMs / 5_000 + 1)) + 2;
  console.log(`${String(attempts)} refused attempts (Events' count; status ${String(restore?.attempts)}) in ${String(Math.round(elapsedMs / 1000))} s; at most ${String(bound)} with the backoff`);
  expect(attempts).toBeGreaterThanOrEqual(3);
  expect(attempts).toBeLessThanOrEqual(bound);
  expect(Date.parse(restore?.nextAttemptAt ?? '') - Date.now()).toBeLessThanOrEqual(360_000);
}

/** A refusal counted from one again at the workload's new generation (a second attempt may have come 5 s later, before this look). */
function expectCountedAgain(workload: ZookeeperWorkload): void {
  const restore = workload.status?.restore;
  expect(restore).toMatchObject({ phase: 'Refused', reason: 'BackupCorrupted', observedGeneration: workload.metadata.generation });
  expect(restore?.attempts).toBeLessThanOrEqual(2);
}

const aclText = (acl: readonly AclEntry[]): string => acl.map((entry) => `${String(entry.perms)}:${entry.scheme}:${entry.id}`).join(',');

describe('restore into a new workload', () => {
  let backupId = '';
  let backupZxid = 0n;
  let acknowledged = new Map<string, bigint>();

  it('backs up an ensemble of 10,101 znodes with sasl ACLs while a client keeps writing', async () => {
    await client.core.createNamespacedSecret({ namespace, body: { metadata: { name: 's3' }, stringData: { AWS_ACCESS_KEY_ID: s3.server.accessKeyId, AWS_SECRET_ACCESS_KEY: s3.server.secretAccessKey } } });
    await client.core.createNamespacedSecret({ namespace, body: { metadata: { name: USERS_SECRET }, stringData: { alice: 'alice-password', bob: 'bob-password' } } });
    await client.create(namespace, SOURCE, bedWorkloadSpec({ replicas: 1, authentication: { sasl: { usersSecretRef: { name: USERS_SECRET } } } }));
    await waitFor('the source member ready', () => client.get(namespace, SOURCE), (workload) => (workload.status?.readyReplicas ?? 0) === 1, ENSEMBLE_TIMEOUT_MS);
    const connectString = `${await memberIp(SOURCE)}:2181`;
    const started = Date.now();
    expect(await loadTree(connectString, leafAcl)).toBe(TREE_ZNODES);
    console.log(`loaded ${String(TREE_ZNODES)} znodes in ${String(Date.now() - started)} ms`);

    const writer = startWriter(connectString);
    await waitFor('the writer under way', () => Promise.resolve(writer.count()), (count) => count >= 20, 30_000);
    await backups.create(namespace, 'once', { workloadRef: { name: SOURCE }, target: target('bed') });
    // Each of the dump's walks reads the whole tree while the writer writes, and one that saw a change is walked again:
    // under the load of a whole CI run, 120 s was once not enough for a run to end.
    let done: ZookeeperBackup;
    try {
      done = await waitFor('the backup under writes', () => backups.get(namespace, 'once'), (seen) => (seen.status?.runs?.length ?? 0) > 0, 300_000);
    } finally {
      acknowledged = await writer.stop();
    }
    const run = done.status?.lastSuccessful;
    expect(run).toMatchObject({ outcome: 'Succeeded' });
    backupId = run?.id ?? '';
    backupZxid = BigInt(run?.zxid ?? '0x0');
    const before = [...acknowledged.values()].filter((czxid) => czxid <= backupZxid).length;
    console.log(`backup ${backupId} at zxid ${run?.zxid ?? ''}: ${String(run?.znodes)} znodes; the writer had ${String(acknowledged.size)} acknowledged, ${String(before)} by the zxid`);
    expect(before).toBeGreaterThan(0);
    expect(before).toBeLessThan(acknowledged.size);
  }, 900_000);

  it('refuses a truncated object, then a corrupted one, with the reason in the status while the member serves no client', async () => {
    // A copy of the backup under another prefix, one object of which the test breaks in the store and then mends.
    const source = `bed/${namespace}/${SOURCE}/${backupId}/`;
    const copy = `broken/${namespace}/${SOURCE}/${backupId}/`;
    const keys = await s3.store.list(source);
    for (const key of keys) await s3.store.put(`${copy}${key.slice(source.length)}`, (await s3.store.get(key)) ?? Buffer.alloc(0), 'application/octet-stream');
    const victim = `${copy}znodes-00000.jsonl.gz`;
    const original = (await s3.store.get(victim)) ?? Buffer.alloc(0);
    await s3.store.put(victim, original.subarray(0, original.length >> 1), 'application/gzip');

    const created = Date.now();
    await client.create(namespace, RESTORED, bedWorkloadSpec({
      replicas: 1,
      authentication: { sasl: { usersSecretRef: { name: USERS_SECRET } } },
      restoreFrom: { workload: { name: SOURCE }, backup: 'latest', target: target('broken') },
    }));
    // The positive signal: the member is in a quorum (observed), the restore refused three times (it is verified before
    // the ensemble is asked anything), and the workload still says why it is not Ready.
    const truncated = await waitFor(
      'the member serving, the restore refused three times',
      () => client.get(namespace, RESTORED),
      (workload) => (workload.status?.readyReplicas ?? 0) === 1 && workload.status?.restore?.phase === 'Refused' && (workload.status.restore.attempts ?? 0) >= 3,
      ENSEMBLE_TIMEOUT_MS,
    );
    const elapsedMs = Date.now() - created;
    console.log(`truncated: ${truncated.status?.restore?.message ?? ''}`);
    expect(truncated.status?.restore).toMatchObject({ phase: 'Refused', reason: 'BackupCorrupted', message: expect.stringContaining(`has ${String(original.length >> 1)} bytes`) });
    await expectBackingOff(truncated.status?.restore, elapsedMs, `has ${String(original.length >> 1)} bytes`);
    expect(ready(truncated)).toMatchObject({ status: 'False', reason: 'BackupCorrupted' });
    expect((await client.core.readNamespacedService({ namespace, name: `${RESTORED}-client` })).spec?.selector).toBeUndefined();
    expect(await clientEndpoints(RESTORED)).toEqual([]);

    const flipped = Buffer.from(original);
    flipped[flipped.length >> 1] = (flipped[flipped.length >> 1] ?? 0) ^ 0xff;
    await s3.store.put(victim, flipped, 'application/gzip');
    // A change of the spec (here a field the members do not use) is a new generation: the restore is attempted at
    // once, the backoff started over, rather than when the wait after the last refusal ends.
    await client.patch(namespace, RESTORED, { spec: { znodes: { namespaceSelector: { matchLabels: { 'restore-test': 'retry' } } } } });
    const corrupted = await waitFor('the corruption seen', () => client.get(namespace, RESTORED), (workload) => workload.status?.restore?.message?.includes('SHA-256') ?? false, 60_000);
    console.log(`corrupted: ${corrupted.status?.restore?.message ?? ''}`);
    expectCountedAgain(corrupted);
    expect(ready(corrupted)).toMatchObject({ status: 'False', reason: 'BackupCorrupted' });
    expect(await clientEndpoints(RESTORED)).toEqual([]);
    const warnings = (await eventsAbout(client, namespace, RESTORED)).filter((event) => event.type === 'Warning' && event.reason === 'BackupCorrupted');
    expect(warnings.some((event) => event.note?.includes(`has ${String(original.length >> 1)} bytes`))).toBe(true);
    expect(warnings.some((event) => event.note?.includes('SHA-256'))).toBe(true);

    // Mended: the restore finds the ensemble still empty (nothing was written while refused) and proceeds.
    await s3.store.put(victim, original, 'application/gzip');
  }, 900_000);

  it('restores every znode with its data and ACL as of the backup\'s zxid, then lets clients in', async () => {
    const started = Date.now();
    const restored = await waitFor('the restored workload Ready', () => client.get(namespace, RESTORED), (workload) => ready(workload)?.status === 'True', 300_000);
    console.log(`Ready ${String(Math.round((Date.now() - started) / 1000))} s after the object was mended`);
    expect(restored.status?.restore).toMatchObject({ phase: 'Restored', backup: backupId, zxid: `0x${backupZxid.toString(16)}`, location: `s3://${BUCKET}/broken/${namespace}/${SOURCE}/${backupId}/` });
    expect((await client.core.readNamespacedService({ namespace, name: `${RESTORED}-client` })).spec?.selector).toBeDefined();
    await waitFor('the client Service\'s endpoint', () => clientEndpoints(RESTORED), (addresses) => addresses.length === 1, 60_000);
    expect((await eventsAbout(client, namespace, RESTORED)).map((event) => event.reason)).toContain('Restored');

    const tree = await treeOf(client, restored);
    let app = 0;
    for (let branch = 0; branch < TREE.branches; branch++) {
      expect(tree.get(`/app/b${String(branch)}`)).toEqual({ data: treeData(branch), acl: OPEN_ACL });
      for (let leaf = 0; leaf < TREE.leaves; leaf++) {
        const found = tree.get(`/app/b${String(branch)}/n${String(leaf)}`);
        if (found?.data === treeData(branch, leaf) && aclText(found.acl) === aclText(leafAcl(branch))) app++;
      }
    }
    expect(tree.get('/app')).toEqual({ data: 'root of the tree', acl: OPEN_ACL });
    const loads = [...tree.keys()].filter((path) => path.startsWith('/load/')).sort();
    const expected = [...acknowledged].filter(([, czxid]) => czxid <= backupZxid).map(([path]) => path).sort();
    const saslAcls = [...tree.values()].filter((znode) => znode.acl.some((entry) => entry.scheme === 'sasl')).length;
    console.log(
      `restored ${String(tree.size)} znodes: ${String(app + 1 + TREE.branches)} of the ${String(TREE_ZNODES)} loaded with their data and ACL ` +
        `(${String(saslAcls)} with sasl ACLs), ${String(loads.length)} of the writer's (${String(expected.length)} acknowledged by the backup's zxid, ` +
        `${String(acknowledged.size - expected.length)} after it)`,
    );
    expect(app).toBe(TREE.branches * TREE.leaves);
    expect(saslAcls).toBe(Math.ceil(TREE.branches / 3) * TREE.leaves + Math.ceil((TREE.branches - 1) / 3) * TREE.leaves);
    expect(loads).toEqual(expected);
  }, 600_000);
});
