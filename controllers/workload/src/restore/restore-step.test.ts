// The restore step against an in-memory store and a fake ensemble: the backup is verified before the ensemble is even
// asked; an ensemble holding data is refused; the start is recorded before the first write; a look after a crash
// finishes its own writes but refuses anyone else's znodes; no quorum is a wait, not a refusal.
import { backupIdAt, kubernetesTime, MANIFEST_OBJECT, type RestoreStatus, type ZnodeRecord, type ZookeeperWorkload } from '@zk-oam/apis';
import { packBackup } from '@zk-oam/backup';
import type { ObjectStore } from '@zk-oam/backup/store';
import { createLogger, KubeApiError, type EventDetails, type KubeObject, type Lister } from '@zk-oam/runtime';
import { ZooKeeperConnectionError, type DumpedZnode, type TreeRestorer } from '@zk-oam/zookeeper';
import { describe, expect, it } from 'vitest';
import { minimalWorkload, withSpec } from '../render/test-workloads.js';
import { restoreBackup } from './restore-step.js';

const ID = backupIdAt(new Date('2026-11-29T03:00:00Z'));
const PREFIX = 'bed/prod/source/';
const NOW = new Date('2026-11-29T04:00:00Z');
const records: ZnodeRecord[] = [
  { path: '/', data: '', acl: [{ perms: 31, scheme: 'world', id: 'anyone' }] },
  { path: '/app', data: Buffer.from('root').toString('base64'), acl: [{ perms: 31, scheme: 'world', id: 'anyone' }] },
  { path: '/app/a', data: Buffer.from('a').toString('base64'), acl: [{ perms: 31, scheme: 'digest', id: 'alice:x' }] },
];

function storeWithBackup(): Map<string, Buffer> {
  const objects = new Map<string, Buffer>();
  const packed = packBackup(records, { id: ID, workload: { namespace: 'prod', name: 'source', uid: 'u' }, zxid: 0x200000042n, startedAt: NOW, finishedAt: NOW });
  for (const object of packed.objects) objects.set(`${PREFIX}${ID}/${object.name}`, object.body);
  objects.set(`${PREFIX}${ID}/${MANIFEST_OBJECT}`, Buffer.from(JSON.stringify(packed.manifest)));
  return objects;
}

interface World {
  objects: Map<string, Buffer>;
  /** The persistent znodes of the ensemble, the root left out; undefined: no quorum. */
  ensemble: Set<string> | undefined;
  written: DumpedZnode[][];
  events: EventDetails<string>[];
  connects: number;
  /** Objects read from the store. */
  gets: number;
}

function fakes(world: World): Parameters<typeof restoreBackup>[0] {
  const secret = (name: string, data: Record<string, string>): KubeObject => ({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name },
    data: Object.fromEntries(Object.entries(data).map(([key, value]) => [key, Buffer.from(value).toString('base64')])),
  });
  const secrets = new Map([
    ['s3', secret('s3', { AWS_ACCESS_KEY_ID: 'id', AWS_SECRET_ACCESS_KEY: 'key' })],
    ['zk-superuser', secret('zk-superuser', { password: 'super', digest: 'super:x' })],
  ]);
  const store: ObjectStore = {
    location: (key) => `s3://backups/${key}`,
    put: () => Promise.reject(new Error('a restore writes nothing to the store')),
    get: (key) => {
      world.gets++;
      return Promise.resolve(world.objects.get(key));
    },
    list: (prefix) => Promise.resolve([...world.objects.keys()].filter((key) => key.startsWith(prefix)).sort()),
    delete: () => Promise.reject(new Error('a restore deletes nothing')),
    close: () => undefined,
  };
  const restorer: TreeRestorer = {
    existingPaths: () => Promise.resolve([...(world.ensemble ?? [])]),
    write: (znodes) => {
      world.written.push([...znodes]);
      for (const znode of znodes) if (znode.path !== '/') world.ensemble?.add(znode.path);
      return Promise.resolve(znodes.length - 1);
    },
    close: () => undefined,
  };
  const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'zk-0', labels: {} }, status: { podIP: '10.0.0.1' } };
  const pods: Lister<KubeObject> = { get: () => undefined, list: () => [pod] };
  const empty: Lister<KubeObject> = { get: () => undefined, list: () => [] };
  return {
    client: {
      request: (method, path) => {
        const found = secrets.get(path.split('/').pop() ?? '');
        return found === undefined ? Promise.reject(new KubeApiError(404, 'NotFound', method, path, 'not found')) : Promise.resolve(found);
      },
    } as Parameters<typeof restoreBackup>[0]['client'],
    caches: { workloads: empty, statefulSets: empty, configMaps: empty, services: empty, podDisruptionBudgets: empty, secrets: empty, secretMetadata: empty, pods },
    recorder: { record: (_regarding, details) => Promise.resolve(void world.events.push(details)) },
    now: () => NOW,
    restore: {
      openStore: () => Promise.resolve(store),
      volumeImage: 'ghcr.io/zk-oam/backup:test',
      connectRestorer: () => {
        world.connects++;
        return world.ensemble === undefined ? Promise.reject(new ZooKeeperConnectionError('no quorum', { operation: 'connect', connectString: '10.0.0.1:2181' })) : Promise.resolve(restorer);
      },
    },
  };
}

const S3_TARGET = { endpoint: 'http://s3:8333', bucket: 'backups', prefix: 'bed', region: 'us-east-1', forcePathStyle: true, credentialsSecretRef: { name: 's3', accessKeyIdKey: 'AWS_ACCESS_KEY_ID', secretAccessKeyKey: 'AWS_SECRET_ACCESS_KEY' } };

function restoring(status?: RestoreStatus): ZookeeperWorkload {
  const workload = withSpec(minimalWorkload(), (spec) => ({
    ...spec,
    restoreFrom: { workload: { name: 'source' }, backup: 'latest', target: { s3: S3_TARGET } },
  }));
  return status === undefined ? workload : { ...workload, status: { restore: status } };
}

function world(ensemble: string[] | 'no quorum' = []): World {
  return { objects: storeWithBackup(), ensemble: ensemble === 'no quorum' ? undefined : new Set(ensemble), written: [], events: [], connects: 0, gets: 0 };
}

const log = createLogger({ name: 'test', level: 'silent' });
const access = { port: 2181, tls: undefined };
const raw: KubeObject = { apiVersion: 'v1', kind: 'ZookeeperWorkload', metadata: { name: 'zk' } };
const run = (seen: World, workload: ZookeeperWorkload): Promise<RestoreStatus | undefined> => restoreBackup(fakes(seen), raw, workload, access, log);

describe('restoreBackup', () => {
  it('does nothing for a workload without restoreFrom', async () => {
    const seen = world();
    expect(await run(seen, minimalWorkload())).toBeUndefined();
    expect(seen.connects).toBe(0);
  });

  it('records the start, then writes every znode on the next look, then keeps to Restored', async () => {
    const seen = world();
    const first = await run(seen, restoring());
    expect(first).toEqual({
      phase: 'Restoring',
      backup: ID,
      location: `s3://backups/${PREFIX}${ID}/`,
      zxid: '0x200000042',
      znodes: 3,
      // Whole seconds, as every time in a status (metav1.Time).
      startedAt: kubernetesTime(NOW),
      reason: 'Restoring',
      message: 'backup verified, the ensemble empty; writing once this is recorded',
    });
    expect(seen.written).toEqual([]);

    const second = await run(seen, restoring(first));
    expect(second).toMatchObject({ phase: 'Restored', backup: ID, zxid: '0x200000042', restoredAt: kubernetesTime(NOW) });
    expect(seen.written).toEqual([records.map((record) => ({ path: record.path, data: Buffer.from(record.data, 'base64'), acl: record.acl }))]);
    expect(seen.events.map((event) => `${event.type} ${event.reason}`)).toEqual(['Normal Restored']);

    const connects = seen.connects;
    expect(await run(seen, restoring(second))).toBe(second);
    expect(seen.connects).toBe(connects);
  });

  it.each([
    ['a flipped byte', 'BackupCorrupted', (objects: Map<string, Buffer>) => objects.set(`${PREFIX}${ID}/znodes-00000.jsonl.gz`, Buffer.from((objects.get(`${PREFIX}${ID}/znodes-00000.jsonl.gz`) ?? Buffer.alloc(0)).map((byte, index) => (index === 20 ? byte ^ 1 : byte))))],
    ['a truncated object', 'BackupCorrupted', (objects: Map<string, Buffer>) => objects.set(`${PREFIX}${ID}/znodes-00000.jsonl.gz`, (objects.get(`${PREFIX}${ID}/znodes-00000.jsonl.gz`) ?? Buffer.alloc(0)).subarray(0, 8))],
    ['a missing object', 'BackupObjectMissing', (objects: Map<string, Buffer>) => objects.delete(`${PREFIX}${ID}/znodes-00000.jsonl.gz`)],
    ['another format', 'BackupInvalid', (objects: Map<string, Buffer>) => objects.set(`${PREFIX}${ID}/${MANIFEST_OBJECT}`, Buffer.from(JSON.stringify({ format: 'other/v9' })))],
    ['no backup at all', 'BackupNotFound', (objects: Map<string, Buffer>) => objects.clear()],
  ])('refuses %s with %s before asking the ensemble anything, with a Warning Event once', async (_case, reason, breakIt) => {
    const seen = world();
    breakIt(seen.objects);
    const refusedOnce = await run(seen, restoring());
    expect(refusedOnce).toMatchObject({ phase: 'Refused', reason });
    expect(seen.connects).toBe(0);
    expect(await run(seen, restoring(refusedOnce))).toEqual(refusedOnce);
    expect(seen.events.map((event) => `${event.type} ${event.reason}`)).toEqual([`Warning ${reason}`]);
  });

  it('reads the store again for a refused restore only once its backoff is over, and counts the attempts', async () => {
    const seen = world();
    seen.objects.delete(`${PREFIX}${ID}/znodes-00000.jsonl.gz`);
    const first = await run(seen, restoring());
    expect(first).toMatchObject({ phase: 'Refused', attempts: 1, nextAttemptAt: expect.any(String) });
    const reads = seen.gets;
    expect(await restoreBackup(fakes(seen), raw, restoring(first), access, log)).toBe(first);
    expect(seen.gets).toBe(reads);
    const later = { ...fakes(seen), now: () => new Date(Date.parse(first?.nextAttemptAt ?? '')) };
    expect(await restoreBackup(later, raw, restoring(first), access, log)).toMatchObject({ phase: 'Refused', reason: 'BackupObjectMissing', attempts: 2 });
    expect(seen.gets).toBeGreaterThan(reads);
    expect(seen.events.map((event) => `${event.type} ${event.reason}`)).toEqual(['Warning BackupObjectMissing', 'Warning BackupObjectMissing']);
  });

  it('refuses an ensemble that holds any znode before the restore started: it never merges', async () => {
    const seen = world(['/app']);
    expect(await run(seen, restoring())).toMatchObject({ phase: 'Refused', reason: 'RestoreTargetNotEmpty', message: expect.stringContaining('(/app)') });
    expect(seen.written).toEqual([]);
  });

  it('after an interrupted write, finishes over its own znodes but refuses a znode the backup does not hold', async () => {
    const started: RestoreStatus = { phase: 'Restoring', backup: ID, zxid: '0x200000042', znodes: 3, startedAt: NOW.toISOString() };
    const own = world(['/app']);
    expect(await run(own, restoring(started))).toMatchObject({ phase: 'Restored' });
    const foreign = world(['/app', '/other']);
    expect(await run(foreign, restoring(started))).toMatchObject({ phase: 'Refused', reason: 'RestoreTargetNotEmpty', backup: ID, startedAt: started.startedAt });
    expect(foreign.written).toEqual([]);
  });

  it('waits for a quorum without refusing: the backup is verified meanwhile', async () => {
    const seen = world('no quorum');
    expect(await run(seen, restoring())).toMatchObject({ phase: 'Restoring', reason: 'Restoring', backup: ID, message: expect.stringContaining('waiting for a quorum') });
    expect(seen.events).toEqual([]);
  });

  it('refuses when the target\'s Secret is missing', async () => {
    const seen = world();
    const workload = withSpec(restoring(), (spec) => ({ ...spec, restoreFrom: spec.restoreFrom === undefined ? undefined : { ...spec.restoreFrom, target: { s3: { ...S3_TARGET, credentialsSecretRef: { name: 'gone', accessKeyIdKey: 'AWS_ACCESS_KEY_ID', secretAccessKeyKey: 'AWS_SECRET_ACCESS_KEY' } } } } }));
    expect(await run(seen, workload)).toMatchObject({ phase: 'Refused', reason: 'RestoreSourceUnavailable' });
  });
});
