// What the backup and restore bed tests share: VersityGW, a store on it and the backup controller for a file's tests;
// and what they put into an ensemble through ZooKeeper's pure-JavaScript client: a tree of branches and leaves whose
// ACLs a test chooses, and a client that keeps creating znodes and reports which ZooKeeper acknowledged, with the zxid
// of each creation; and a workload's whole tree read back as its superuser.
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { superuserSecretName, type ZookeeperWorkload } from '@zk-oam/apis';
import { s3Store, type ObjectStore } from '@zk-oam/backup';
import { treeDumperConnector } from '@zk-oam/zookeeper';
import zookeeper from 'node-zookeeper-client';
import { afterAll, beforeAll } from 'vitest';
import type { BedInfo } from '../src/bed/index.js';
import { startControllerProcess, stopCleanly, waitControllerReady, type ControllerProcess, type WorkloadClient } from '../src/controllers/index.js';
import { createZookeeperClient } from '../src/ensemble-probe/index.js';
import { startS3Server, type S3Server } from '../src/s3/s3-server.js';

export interface BackupBed {
  readonly server: S3Server;
  /** The bucket, as the tests read and change it. */
  readonly store: ObjectStore;
}

/** VersityGW with `bucket`, a store on it, and the backup controller run from its bundle: started before a file's tests, stopped after. */
export function useBackupBed(bed: BedInfo, bucket: string): BackupBed {
  let started: { server: S3Server; store: ObjectStore; dir: string; controller: ControllerProcess } | undefined;
  const running = (): NonNullable<typeof started> => {
    if (started === undefined) throw new Error('the backup bed has not been started');
    return started;
  };
  beforeAll(async () => {
    const dir = await mkdtemp(join(tmpdir(), 'zkoam-backup-'));
    const server = await startS3Server({ dir, buckets: [bucket] });
    const store = s3Store({ endpoint: server.endpoint, region: server.region, bucket, forcePathStyle: true, accessKeyId: server.accessKeyId, secretAccessKey: server.secretAccessKey, ca: undefined, requestTimeoutMs: 10_000 });
    const controller = await startControllerProcess({ bed, name: 'backup', logLevel: 'info', env: { WAIT_PERIOD_MS: '1000', IDLE_PERIOD_MS: '5000' } });
    started = { server, store, dir, controller };
    await waitControllerReady(controller);
  });
  afterAll(async () => {
    if (started === undefined) return;
    started.store.close();
    await stopCleanly(started.controller);
    await started.server.stop();
    await rm(started.dir, { recursive: true, force: true });
  });
  return {
    get server() {
      return running().server;
    },
    get store() {
      return running().store;
    },
  };
}

/** Branches × leaves under /app: with the parents, 10,101 znodes (the issue asks for 10,000). */
export const TREE = { branches: 100, leaves: 100 } as const;
export const TREE_ZNODES = 1 + TREE.branches * (1 + TREE.leaves);

export interface AclEntry {
  readonly perms: number;
  readonly scheme: string;
  readonly id: string;
}

export const OPEN_ACL: readonly AclEntry[] = [{ perms: 31, scheme: 'world', id: 'anyone' }];

/** The data the tree holds at a path: what a test expects back from a backup or a restore. */
export function treeData(branch: number, leaf?: number): string {
  return leaf === undefined ? `branch ${String(branch)}` : `value ${String(branch)}.${String(leaf)}`;
}

/** ZooKeeper's digest id for a user: user:base64(sha1(user:password)). */
export function digestId(user: string, password: string): string {
  return `${user}:${createHash('sha1').update(`${user}:${password}`).digest('base64')}`;
}

async function connected(connectString: string): Promise<zookeeper.Client> {
  const zk = createZookeeperClient(connectString, { sessionTimeout: 10_000 });
  await new Promise<void>((resolve) => {
    zk.once('connected', () => resolve());
    zk.connect();
  });
  return zk;
}

const aclOf = (entries: readonly AclEntry[]): zookeeper.ACL[] => entries.map((entry) => new zookeeper.ACL(entry.perms, new zookeeper.Id(entry.scheme, entry.id)));

/** Writes the tree, a branch's leaves in flight at once, each branch's leaves with the ACL `leafAcl` gives; how many znodes. */
export async function loadTree(connectString: string, leafAcl: (branch: number) => readonly AclEntry[]): Promise<number> {
  const zk = await connected(connectString);
  const create = (path: string, data: string, acl: readonly AclEntry[] = OPEN_ACL): Promise<void> =>
    new Promise((resolve, reject) => zk.create(path, Buffer.from(data), aclOf(acl), zookeeper.CreateMode.PERSISTENT, (error) => (error === null || error === undefined ? resolve() : reject(error))));
  try {
    await create('/app', 'root of the tree');
    for (let branch = 0; branch < TREE.branches; branch++) {
      await create(`/app/b${String(branch)}`, treeData(branch));
      const acl = leafAcl(branch);
      await Promise.all(Array.from({ length: TREE.leaves }, (_, leaf) => create(`/app/b${String(branch)}/n${String(leaf)}`, treeData(branch, leaf), acl)));
    }
  } finally {
    zk.close();
  }
  return TREE_ZNODES;
}

/**
 * Between two writes of the writer. Unpaced, it wrote as fast as the member answered: a dump slowed by a loaded machine
 * then met thousands more znodes each walk and took longer still (16,657 znodes in 203 s, then 51,610 in 948 s).
 */
const WRITE_INTERVAL_MS = 20;

/**
 * A client creating sequential znodes under /load, one every 20 ms at most, until stopped: the paths ZooKeeper
 * acknowledged, with their czxid. `stop()` stops the writes at once, before it resolves.
 */
export function startWriter(connectString: string): { count: () => number; stop: () => Promise<Map<string, bigint>> } {
  const acknowledged: string[] = [];
  let writing = true;
  const call = <T>(start: (done: (error: unknown, value: T) => void) => void): Promise<T> =>
    new Promise((resolve, reject) => start((error, value) => (error === null || error === undefined ? resolve(value) : reject(error instanceof Error ? error : new Error(String(error))))));
  const loop = (async (): Promise<zookeeper.Client> => {
    const session = await connected(connectString);
    await call<string>((done) => session.create('/load', Buffer.from('load'), done)).catch(() => undefined);
    while (writing) {
      acknowledged.push(await call<string>((done) => session.create('/load/w-', Buffer.from('x'), zookeeper.CreateMode.PERSISTENT_SEQUENTIAL, done)));
      await sleep(WRITE_INTERVAL_MS);
    }
    return session;
  })();
  // A write that fails (the member went) ends the loop, and stop() throws it; until then it is nobody's unhandled rejection.
  loop.catch(() => undefined);
  return {
    count: () => acknowledged.length,
    stop: async () => {
      writing = false;
      const session = await loop;
      const created = new Map<string, bigint>();
      for (const path of acknowledged) created.set(path, (await call<zookeeper.Stat>((done) => session.exists(path, done))).czxid.readBigUInt64BE());
      session.close();
      return created;
    },
  };
}

/** Every persistent znode of a one-member workload's ensemble, read as its superuser (whom no ACL stops). */
export async function treeOf(client: WorkloadClient, workload: ZookeeperWorkload): Promise<Map<string, { data: string; acl: readonly AclEntry[] }>> {
  const namespace = workload.metadata.namespace ?? '';
  const secret = await client.core.readNamespacedSecret({ namespace, name: superuserSecretName(workload) });
  const password = Buffer.from(secret.data?.['password'] ?? '', 'base64').toString('utf8');
  const pod = await client.core.readNamespacedPod({ namespace, name: `${workload.metadata.name}-0` });
  const dumper = await treeDumperConnector(10_000)([{ pod: pod.metadata?.name ?? '', myid: 1, ip: pod.status?.podIP ?? '' }], { port: 2181, tls: undefined }, password);
  try {
    const tree = new Map<string, { data: string; acl: readonly AclEntry[] }>();
    await dumper.dump(
      {
        begin: () => Promise.resolve(tree.clear()),
        add: (znode) => Promise.resolve(void tree.set(znode.path, { data: znode.data.toString('utf8'), acl: znode.acl })),
      },
      3,
    );
    return tree;
  } finally {
    dumper.close();
  }
}
