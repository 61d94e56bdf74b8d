// ZookeeperBackups of a real ZooKeeper 3.8 ensemble into a real S3-compatible server (VersityGW, built from its Go
// module), by the backup controller run from its bundle as its ServiceAccount: a tree of 10,101 znodes, some with a
// digest ACL, is saved with a manifest whose checksums match the objects and whose records are the tree as it was; a
// backup taken while a client keeps creating znodes holds exactly those acknowledged by its zxid; retention leaves the
// newest backups after several runs, and after three runs of a real schedule every 20 seconds; a target refusing the
// credentials fails the run with a Warning and Ready False. A TLS-only ensemble (no plain port) is backed up through
// its secure port. A backup to a PersistentVolumeClaim goes through the Job the controller starts to mount it, is
// read back from the volume's directory and checked against its manifest, and is restored into a new workload (the
// workload controller reading the claim through a Job of its own): every znode comes back with its data and ACL. The
// ensemble backed up has three members, and the backup reads a follower, never the leader.
import { gunzipSync } from 'node:zlib';
import {
  backupManifestSchema,
  derivedNames,
  memberServerName,
  SUPERUSER_SECRET_KEYS,
  TLS_SECRET_KEYS,
  ZOOKEEPER_BACKUP,
  ZOOKEEPER_PORTS,
  zookeeperBackupSchema,
  znodeRecordSchema,
  type BackupManifest,
  type BackupRun,
  type ZnodeRecord,
  type ZookeeperBackup,
  type ZookeeperBackupInput,
} from '@zk-oam/apis';
import { checkObject, DirectoryStore, type ObjectStore } from '@zk-oam/backup';
import { fourLetterWord, parseSrvr, treeRestorerConnector } from '@zk-oam/zookeeper';
import { describe, expect, it } from 'vitest';
import { bedWorkloadSpec, CustomObjects, eventsAbout, isReady, kubectl, useWorkloadController, waitFor } from '../src/controllers/index.js';
import { workerBed } from '../src/worker-bed.js';
import { digestId, loadTree, OPEN_ACL, startWriter, treeOf, useBackupBed } from './backup-support.js';

const bed = workerBed();
const suite = useWorkloadController(bed, { namespacePrefix: 'backup', env: { IDLE_PERIOD_MS: '2000' } });
const { client, namespace } = suite;
const WORKLOAD = 'zk';
const BUCKET = 'backups';
const ALICE = { user: 'alice', password: 'alice-secret' };
/**
 * How long one run may take. A dump of the 10,101 znodes takes 7-9 s on an idle machine; walking the tree is bound by
 * the member's answers, and under the load of a whole CI run on a slower machine it took over 120 s.
 */
const RUN_TIMEOUT_MS = 300_000;

const backups = new CustomObjects(bed, ZOOKEEPER_BACKUP, zookeeperBackupSchema);
const s3 = useBackupBed(bed, BUCKET);

function backupSpec(overrides: Partial<ZookeeperBackupInput['spec']> = {}): ZookeeperBackupInput['spec'] {
  return {
    workloadRef: { name: WORKLOAD },
    target: { s3: { endpoint: s3.server.endpoint, bucket: BUCKET, prefix: 'bed', credentialsSecretRef: { name: 's3' } } },
    ...overrides,
  };
}

const ready = (backup: ZookeeperBackup): { status: string; reason: string; message: string } | undefined => backup.status?.conditions?.find((condition) => condition.type === 'Ready');

function lastSuccessful(backup: ZookeeperBackup): BackupRun {
  const run = backup.status?.lastSuccessful;
  if (run === undefined) throw new Error(`ZookeeperBackup ${backup.metadata.name} has no successful run`);
  return run;
}

/** A backup's manifest and records, read back from the store, each object checked against the manifest. */
async function readBackup(prefix: string, from: ObjectStore = s3.store): Promise<{ manifest: BackupManifest; records: ZnodeRecord[] }> {
  const manifest = backupManifestSchema.parse(JSON.parse((await from.get(`${prefix}manifest.json`))?.toString('utf8') ?? 'null'));
  const records: ZnodeRecord[] = [];
  for (const entry of manifest.objects) {
    const body = (await from.get(`${prefix}${entry.name}`)) ?? Buffer.alloc(0);
    expect(checkObject(entry, body)).toEqual({ ok: true });
    records.push(...gunzipSync(body).toString('utf8').trim().split('\n').map((line) => znodeRecordSchema.parse(JSON.parse(line))));
  }
  return { manifest, records };
}

/** The Jobs of the namespace (the volume servers the controller started). */
async function kubectlJobs(): Promise<string[]> {
  const names = await kubectl(bed, ['get', 'jobs', '-n', namespace, '-o', 'jsonpath={.items[*].metadata.name}']);
  return names.split(/\s+/).filter((name) => name !== '');
}

async function memberIp(pod = `${WORKLOAD}-0`): Promise<string> {
  return (await client.core.readNamespacedPod({ namespace, name: pod })).status?.podIP ?? '';
}

/** What a member says it is, asked with srvr. */
async function modeOf(pod: string): Promise<string> {
  return parseSrvr(await fourLetterWord(await memberIp(pod), ZOOKEEPER_PORTS.client, 'srvr', { timeoutMs: 3_000 })).mode;
}

/** The target's Secret, a three-member ensemble, and the tree loaded into it: how many znodes it holds. */
async function loadedEnsemble(): Promise<number> {
  const stringData = { AWS_ACCESS_KEY_ID: s3.server.accessKeyId, AWS_SECRET_ACCESS_KEY: s3.server.secretAccessKey };
  await client.core.createNamespacedSecret({ namespace, body: { metadata: { name: 's3' }, stringData } });
  await client.create(namespace, WORKLOAD, bedWorkloadSpec({ replicas: 3 }));
  await waitFor('the three members ready, a leader elected', () => client.get(namespace, WORKLOAD), (workload) => (workload.status?.readyReplicas ?? 0) === 3 && workload.status?.leader !== undefined, 420_000);
  const started = Date.now();
  // The leaves of every third branch are alice's alone.
  const alice = [{ perms: 31, scheme: 'digest', id: digestId(ALICE.user, ALICE.password) }];
  const loaded = await loadTree(`${await memberIp()}:2181`, (branch) => (branch % 3 === 0 ? alice : OPEN_ACL));
  console.log(`loaded ${String(loaded)} znodes in ${String(Date.now() - started)} ms`);
  return loaded;
}

const aclText = (acl: readonly { perms: number; scheme: string; id: string }[]): string => acl.map((entry) => `${String(entry.perms)}:${entry.scheme}:${entry.id}`).join(',');

/** The backup on the claim, as its run and the volume's files give it: what the restore from the claim must give back. */
let fromClaim: { id: string; records: readonly ZnodeRecord[] } = { id: '', records: [] };

describe('backups to S3', () => {
  it('saves every persistent znode with its data and ACL, as of one zxid, with a manifest whose checksums match', async () => {
    const loaded = await loadedEnsemble();

    await backups.create(namespace, 'once', backupSpec());
    // Ready may first say why the run waits (WorkloadNotServing until the controller's cache sees the member ready).
    const done = await waitFor('the one-off backup run', () => backups.get(namespace, 'once'), (seen) => (seen.status?.runs?.length ?? 0) > 0, RUN_TIMEOUT_MS);
    expect(ready(done)).toMatchObject({ status: 'True', reason: 'Available' });
    const run = lastSuccessful(done);
    console.log(`backup of ${String(run.znodes)} znodes, ${String(run.sizeBytes)} bytes, in ${String(Date.parse(run.finishedAt) - Date.parse(run.startedAt))} ms`);
    expect(run).toMatchObject({ outcome: 'Succeeded', trigger: 'Once', location: `s3://${BUCKET}/bed/${namespace}/${WORKLOAD}/${run.id}/` });
    // The tree loaded and the root, at least (the workload controller may have written a znode of its own).
    expect(run.znodes).toBeGreaterThanOrEqual(loaded + 1);

    const { manifest, records } = await readBackup(`bed/${namespace}/${WORKLOAD}/${run.id}/`);
    expect(manifest).toMatchObject({ id: run.id, zxid: run.zxid, znodes: run.znodes, workload: { namespace, name: WORKLOAD } });
    const byPath = new Map(records.map((record) => [record.path, record]));
    expect(byPath.size).toBe(run.znodes);
    expect([...byPath.keys()].filter((path) => path === '/app' || path.startsWith('/app/'))).toHaveLength(loaded);
    expect(byPath.has('/')).toBe(true);
    expect([...byPath.keys()].some((path) => path.startsWith('/zookeeper'))).toBe(false);
    expect(Buffer.from(byPath.get('/app/b1/n7')?.data ?? '', 'base64').toString()).toBe('value 1.7');
    expect(byPath.get('/app/b3/n42')?.acl).toEqual([{ perms: 31, scheme: 'digest', id: digestId(ALICE.user, ALICE.password) }]);
    expect(byPath.get('/app/b4/n42')?.acl).toEqual([{ perms: 31, scheme: 'world', id: 'anyone' }]);
    const events = await eventsAbout(client, namespace, 'once', 'ZookeeperBackup');
    expect(events.map((event) => event.reason)).toContain('BackupSucceeded');

    // Read from a follower, never the leader: the member the run names is not the workload's leader, and says so.
    const leader = (await client.get(namespace, WORKLOAD)).status?.leader;
    const member = run.member ?? '';
    const mode = await modeOf(member);
    console.log(`the backup read ${member} (srvr: ${mode}); the leader is ${leader ?? '-'}`);
    expect(member).toMatch(new RegExp(`^${WORKLOAD}-[0-2]$`));
    expect(member).not.toBe(leader);
    expect(mode).toBe('follower');
  }, 900_000);

  it('backs up while a client keeps writing: every znode acknowledged by the backup\'s zxid is in it, none after', async () => {
    const writer = startWriter(`${await memberIp()}:2181`);
    await waitFor('the writer under way', () => Promise.resolve(writer.count()), (count) => count >= 20, 30_000);
    await backups.create(namespace, 'busy', backupSpec({ target: { s3: { endpoint: s3.server.endpoint, bucket: BUCKET, prefix: 'busy', credentialsSecretRef: { name: 's3' } } } }));
    let created = new Map<string, bigint>();
    let done: ZookeeperBackup;
    try {
      done = await waitFor('the backup under writes', () => backups.get(namespace, 'busy'), (seen) => (seen.status?.runs?.length ?? 0) > 0, RUN_TIMEOUT_MS);
    } finally {
      // Stopped whatever happened: a writer left running grew the tree every later test of the file dumps.
      created = await writer.stop();
    }
    expect(done.status?.runs?.[0]).toMatchObject({ outcome: 'Succeeded' });
    const run = lastSuccessful(done);
    const point = BigInt(run.zxid ?? '0x0');
    const { records } = await readBackup(`busy/${namespace}/${WORKLOAD}/${run.id}/`);
    const saved = new Set(records.map((record) => record.path).filter((path) => path.startsWith('/load/')));
    const before = [...created].filter(([, czxid]) => czxid <= point).map(([path]) => path);
    console.log(`writer: ${String(created.size)} znodes created, ${String(before.length)} by the backup's zxid ${run.zxid ?? ''}, saved ${String(saved.size)}`);
    expect(before.length).toBeGreaterThan(0);
    expect(before.length).toBeLessThan(created.size);
    expect([...saved].sort()).toEqual(before.sort());
  }, 420_000);

  it('keeps the newest backups retention names after several runs, and deletes the older from the store', async () => {
    await backups.create(namespace, 'kept', backupSpec({ target: { s3: { endpoint: s3.server.endpoint, bucket: BUCKET, prefix: 'kept', credentialsSecretRef: { name: 's3' } } }, retention: { count: 2 }, runTrigger: '1' }));
    for (const trigger of ['1', '2', '3']) {
      if (trigger !== '1') await backups.patch(namespace, 'kept', { spec: { runTrigger: trigger } });
      await waitFor(`run ${trigger}`, () => backups.get(namespace, 'kept'), (backup) => backup.status?.observedRunTrigger === trigger && backup.status.runs?.[0]?.outcome === 'Succeeded', RUN_TIMEOUT_MS);
    }
    const kept = await backups.get(namespace, 'kept');
    const ids = (kept.status?.runs ?? []).map((run) => run.id);
    expect(ids).toHaveLength(3);
    const manifests = (await s3.store.list(`kept/${namespace}/${WORKLOAD}/`)).filter((key) => key.endsWith('/manifest.json'));
    expect(manifests).toEqual(ids.slice(0, 2).reverse().map((id) => `kept/${namespace}/${WORKLOAD}/${id}/manifest.json`));
    expect(await s3.store.list(`kept/${namespace}/${WORKLOAD}/${ids[2] ?? ''}/`)).toEqual([]);
    const events = await eventsAbout(client, namespace, 'kept', 'ZookeeperBackup');
    expect(events.map((event) => event.reason)).toContain('BackupsDeleted');
  }, 960_000);

  it('runs on a real schedule, every 20 seconds: three scheduled runs, retention deleting the older from the store', async () => {
    const target = { s3: { endpoint: s3.server.endpoint, bucket: BUCKET, prefix: 'cron', credentialsSecretRef: { name: 's3' } } };
    await backups.create(namespace, 'cron', backupSpec({ target, schedule: '0,20,40 * * * * *', retention: { count: 2 } }));
    const ran = await waitFor('three scheduled runs', () => backups.get(namespace, 'cron'), (backup) => (backup.status?.runs ?? []).filter((run) => run.outcome === 'Succeeded').length >= 3, RUN_TIMEOUT_MS);
    await backups.patch(namespace, 'cron', { spec: { suspend: true } });
    const runs = ran.status?.runs ?? [];
    console.log(`scheduled runs: ${runs.map((run) => `${run.id} (${run.trigger}, ${run.outcome})`).join(', ')}; next ${ran.status?.nextRunAt ?? '-'}`);
    expect(runs.slice(0, 3).map((run) => [run.trigger, run.outcome])).toEqual([
      ['Schedule', 'Succeeded'],
      ['Schedule', 'Succeeded'],
      ['Schedule', 'Succeeded'],
    ]);
    // Each started on the first tick of the schedule (a 20-second boundary) after the run before it, or, when that run
    // was still going then, as it finished: never before the tick, and within 10 s of when it was due (a run starts
    // when its reconcile does). A dump of this tree takes 7-9 s on an idle machine and over 20 s under a loaded one.
    const tickAtOrBefore = (time: number): number => time - (time % 20_000);
    const oldestFirst = runs.slice(0, 3).reverse();
    for (const [index, run] of oldestFirst.entries()) {
      const started = new Date(run.startedAt).getTime();
      const before = oldestFirst[index - 1];
      const tick = before === undefined ? tickAtOrBefore(started) : tickAtOrBefore(new Date(before.startedAt).getTime()) + 20_000;
      const due = before === undefined ? tick : Math.max(tick, new Date(before.finishedAt).getTime());
      expect(started, `${run.startedAt} after the tick ${new Date(tick).toISOString()}`).toBeGreaterThanOrEqual(tick);
      expect(started - due, `${run.startedAt}, due ${new Date(due).toISOString()}`).toBeLessThan(10_000);
    }
    const kept = await waitFor('retention after the latest run', () => s3.store.list(`cron/${namespace}/${WORKLOAD}/`), (keys) => keys.filter((key) => key.endsWith('/manifest.json')).length <= 2, 30_000);
    const latest = (await backups.get(namespace, 'cron')).status?.runs?.filter((run) => run.outcome === 'Succeeded').map((run) => run.id) ?? [];
    expect(kept.filter((key) => key.endsWith('/manifest.json'))).toEqual(latest.slice(0, 2).reverse().map((id) => `cron/${namespace}/${WORKLOAD}/${id}/manifest.json`));
    expect(kept.some((key) => key.includes(runs[2]?.id ?? 'none'))).toBe(false);
  }, 420_000);

  it('backs up to a PersistentVolumeClaim through the Job that mounts it: the files on the volume match the manifest', async () => {
    await client.core.createNamespacedPersistentVolumeClaim({ namespace, body: { metadata: { name: 'backups' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } } });
    await backups.create(namespace, 'to-pvc', backupSpec({ target: { pvc: { claimName: 'backups', prefix: 'pvc' } } }));
    const done = await waitFor('the backup to the claim', () => backups.get(namespace, 'to-pvc'), (seen) => (seen.status?.runs?.length ?? 0) > 0, 300_000);
    expect(done.status?.runs?.[0]).toMatchObject({ outcome: 'Succeeded' });
    const run = lastSuccessful(done);
    expect(run.location).toBe(`pvc://backups/pvc/${namespace}/${WORKLOAD}/${run.id}/`);
    // The volume as the bed's node agent provides it: a directory per claim, named by its PersistentVolume.
    const claim = await client.core.readNamespacedPersistentVolumeClaim({ namespace, name: 'backups' });
    const volume = await client.core.readPersistentVolume({ name: claim.spec?.volumeName ?? '' });
    const directory = new DirectoryStore(volume.spec?.hostPath?.path ?? '', 'pvc://backups/');
    const { manifest, records } = await readBackup(`pvc/${namespace}/${WORKLOAD}/${run.id}/`, directory);
    console.log(`backup to the claim: ${String(manifest.znodes)} znodes in ${String(manifest.objects.length)} objects, ${String(run.sizeBytes)} bytes, zxid ${manifest.zxid}`);
    expect(manifest).toMatchObject({ id: run.id, zxid: run.zxid, znodes: run.znodes });
    expect(records).toHaveLength(run.znodes ?? -1);
    expect(records.find((record) => record.path === '/app/b3/n42')?.acl).toEqual([{ perms: 31, scheme: 'digest', id: digestId(ALICE.user, ALICE.password) }]);
    const jobs = await waitFor('the volume server’s Job deleted', () => kubectlJobs(), (names) => names.length === 0, 60_000);
    expect(jobs).toEqual([]);
    fromClaim = { id: run.id, records };
  }, 420_000);

  it('restores the backup on the claim into a new workload: every znode with its data and ACL', async () => {
    const restoredName = 'from-pvc';
    await client.create(namespace, restoredName, bedWorkloadSpec({ replicas: 1, restoreFrom: { workload: { name: WORKLOAD }, backup: fromClaim.id, target: { pvc: { claimName: 'backups', prefix: 'pvc' } } } }));
    const restored = await waitFor('the workload restored from the claim Ready', () => client.get(namespace, restoredName), (workload) => isReady(workload), 420_000);
    expect(restored.status?.restore).toMatchObject({ phase: 'Restored', backup: fromClaim.id, location: `pvc://backups/pvc/${namespace}/${WORKLOAD}/${fromClaim.id}/`, znodes: fromClaim.records.length });
    const tree = await treeOf(client, restored);
    const matching = fromClaim.records.filter((record) => {
      const found = tree.get(record.path);
      return found?.data === Buffer.from(record.data, 'base64').toString('utf8') && aclText(found.acl) === aclText(record.acl);
    });
    const digestAcls = [...tree.values()].filter((znode) => znode.acl.some((entry) => entry.scheme === 'digest')).length;
    console.log(`restored from the claim: ${String(matching.length)} of ${String(fromClaim.records.length)} znodes with their data and ACL (${String(digestAcls)} with a digest ACL); the tree holds ${String(tree.size)}`);
    expect(matching).toHaveLength(fromClaim.records.length);
    expect(tree.get('/app/b3/n42')?.acl).toEqual([{ perms: 31, scheme: 'digest', id: digestId(ALICE.user, ALICE.password) }]);
    // The restore's volume server is gone with its attempt.
    expect(await waitFor('the restore’s Job deleted', () => kubectlJobs(), (names) => names.length === 0, 60_000)).toEqual([]);
    await client.delete(namespace, restoredName);
  }, 600_000);

  it('backs up a TLS-only ensemble through its secure port: the znodes written over TLS are in the backup', async () => {
    const workload = 'zk-tls';
    const names = derivedNames(workload);
    await client.create(namespace, workload, bedWorkloadSpec({ replicas: 1, tls: { quorum: true, client: 'Only', certificates: { validityHours: 24 } } }));
    await waitFor('the TLS-only member ready', () => client.get(namespace, workload), isReady, 420_000);
    // Written as its superuser over TLS (no plain port is open), as a client of the ensemble would write.
    const superuser = await client.core.readNamespacedSecret({ namespace, name: names.defaultSuperuserSecret });
    const password = Buffer.from(superuser.data?.[SUPERUSER_SECRET_KEYS.password] ?? '', 'base64').toString('utf8');
    const tls = await client.core.readNamespacedSecret({ namespace, name: names.tlsSecret });
    const access = { port: ZOOKEEPER_PORTS.secureClient, tls: { ca: Buffer.from(tls.data?.[TLS_SECRET_KEYS.ca] ?? '', 'base64').toString('utf8'), serverName: memberServerName(workload, namespace) } };
    const pod = await client.core.readNamespacedPod({ namespace, name: `${workload}-0` });
    const writer = await treeRestorerConnector(10_000)([{ pod: `${workload}-0`, myid: 1, ip: pod.status?.podIP ?? '' }], access, password);
    const written = [{ path: '/secure', data: Buffer.from('over tls'), acl: OPEN_ACL }, ...Array.from({ length: 50 }, (_, index) => ({ path: `/secure/n${String(index)}`, data: Buffer.from(`value ${String(index)}`), acl: OPEN_ACL }))];
    try {
      expect(await writer.write(written)).toBe(written.length);
    } finally {
      writer.close();
    }

    await backups.create(namespace, 'tls', backupSpec({ workloadRef: { name: workload }, target: { s3: { endpoint: s3.server.endpoint, bucket: BUCKET, prefix: 'tls', credentialsSecretRef: { name: 's3' } } } }));
    const done = await waitFor('the backup of the TLS-only ensemble', () => backups.get(namespace, 'tls'), (seen) => (seen.status?.runs?.length ?? 0) > 0, RUN_TIMEOUT_MS);
    expect(done.status?.runs?.[0]).toMatchObject({ outcome: 'Succeeded', member: `${workload}-0` });
    const run = lastSuccessful(done);
    const { manifest, records } = await readBackup(`tls/${namespace}/${workload}/${run.id}/`);
    console.log(`backup of the TLS-only ensemble: ${String(manifest.znodes)} znodes, zxid ${manifest.zxid}`);
    const saved = new Map(records.map((record) => [record.path, Buffer.from(record.data, 'base64').toString('utf8')]));
    for (const znode of written) expect(saved.get(znode.path), znode.path).toBe(znode.data.toString('utf8'));
  }, 900_000);

  it('fails a run the target refuses: a Failed run, Ready False with the reason, a Warning Event', async () => {
    await client.core.createNamespacedSecret({ namespace, body: { metadata: { name: 's3-wrong' }, stringData: { AWS_ACCESS_KEY_ID: s3.server.accessKeyId, AWS_SECRET_ACCESS_KEY: 'wrong' } } });
    await backups.create(namespace, 'refused', backupSpec({ target: { s3: { endpoint: s3.server.endpoint, bucket: BUCKET, credentialsSecretRef: { name: 's3-wrong' } } } }));
    const failed = await waitFor('the refused run', () => backups.get(namespace, 'refused'), (seen) => seen.status?.runs?.[0]?.outcome === 'Failed', 120_000);
    expect(ready(failed)).toMatchObject({ status: 'False', reason: 'TargetUnavailable' });
    expect(failed.status?.lastSuccessful).toBeUndefined();
    const warnings = (await eventsAbout(client, namespace, 'refused', 'ZookeeperBackup')).filter((event) => event.type === 'Warning');
    expect(warnings.map((event) => event.reason)).toContain('TargetUnavailable');
  }, 120_000);
});
