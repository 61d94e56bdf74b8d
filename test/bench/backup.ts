// Benchmark of a backup (run: `npm run bench:backup`, in the bed's network: scripts/bed-network.sh): a real ZooKeeper
// 3.8 ensemble of three members on this machine and a real S3 server (VersityGW), loaded with 10,000 and then 100,000
// znodes (ZKOAM_BENCH_BACKUP_SIZES), each backed up the way the controller does it (the superuser's session on a
// follower, the dump streamed by BackupWriter into S3), timed, with its size; and a client's write latency (a create,
// one at a time, on the leader) measured for a while before the backup and during it: the load the backup puts on the
// ensemble. Prints figures and the machine's load; asserts nothing.
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { BackupWriter, s3Store } from '@zk-oam/backup';
import { backupIdAt } from '@zk-oam/apis';
import { fourLetterWord, parseSrvr, treeDumperConnector } from '@zk-oam/zookeeper';
import zookeeper from 'node-zookeeper-client';
import { pino } from 'pino';
import { createZookeeperClient } from '../src/ensemble-probe/index.js';
import { startS3Server } from '../src/s3/s3-server.js';
import { startLocalEnsemble, type LocalMember } from '../src/zookeeper-local/index.js';

const SIZES = (process.env['ZKOAM_BENCH_BACKUP_SIZES'] ?? '10000,100000').split(',').map(Number);
const SUPER_PASSWORD = 'bench-super';
const BUCKET = 'bench';
const LEAVES_PER_BRANCH = 100;
/** How long the write latency is sampled before the backup. */
const BASELINE_MS = 10_000;
const log = pino({ level: 'warn' });

type Client = zookeeper.Client;

async function connected(connectString: string): Promise<Client> {
  const client = createZookeeperClient(connectString, { sessionTimeout: 30_000 });
  await new Promise<void>((resolve) => {
    client.once('connected', () => resolve());
    client.connect();
  });
  return client;
}

function call<T>(start: (done: (error: unknown, value: T) => void) => void): Promise<T> {
  return new Promise((resolve, reject) => start((error, value) => (error === null || error === undefined ? resolve(value) : reject(error instanceof Error ? error : new Error(String(error))))));
}

/** Creates `count` znodes under `root` (a hundred per branch, with 64 bytes each), 200 creates in flight. */
async function load(client: Client, root: string, count: number): Promise<void> {
  const data = Buffer.alloc(64, 'd');
  await call<string>((done) => client.create(root, data, done));
  const branches = Math.ceil(count / LEAVES_PER_BRANCH);
  for (let branch = 0; branch < branches; branch++) {
    const parent = `${root}/b${String(branch)}`;
    await call<string>((done) => client.create(parent, data, done));
    await Promise.all(Array.from({ length: LEAVES_PER_BRANCH - 1 }, (_, leaf) => call<string>((done) => client.create(`${parent}/n${String(leaf)}`, data, done))));
  }
}

/**
 * A client creating sequential znodes under /probe one write at a time until stopped (creates, because a dump is
 * made to refuse a znode rewritten during its walk, README of the backup controller): each acknowledged write's latency, ms, and the
 * writes that failed (a connection lost on this loaded machine: the client reconnects and the probe goes on).
 */
function probe(client: Client): { stop: () => Promise<{ latencies: number[]; failed: number }> } {
  const latencies: number[] = [];
  let failed = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      try {
        await call<string>((done) => client.create('/probe/w-', Buffer.from(String(started)), zookeeper.CreateMode.PERSISTENT_SEQUENTIAL, done));
        latencies.push(performance.now() - started);
      } catch {
        failed++;
      }
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return { latencies, failed };
    },
  };
}

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

async function modeOf(member: LocalMember): Promise<string> {
  return parseSrvr(await fourLetterWord(member.ip, member.ports.client, 'srvr')).mode;
}

function loadLine(): string {
  return loadavg().map((value) => value.toFixed(2)).join(' ');
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'zkoam-bench-backup-'));
  const ensemble = await startLocalEnsemble({ size: 3, dir: join(dir, 'zk'), superPassword: SUPER_PASSWORD, log });
  const server = await startS3Server({ dir: join(dir, 's3'), buckets: [BUCKET], log });
  const store = s3Store({ endpoint: server.endpoint, region: server.region, bucket: BUCKET, forcePathStyle: true, accessKeyId: server.accessKeyId, secretAccessKey: server.secretAccessKey, ca: undefined, requestTimeoutMs: 60_000 });
  try {
    const members = ensemble.members();
    const modes = await Promise.all(members.map(modeOf));
    const leader = members[modes.indexOf('leader')] ?? members[0];
    const followers = members.filter((_, index) => modes[index] === 'follower');
    if (leader === undefined || followers.length === 0) throw new Error(`no leader and follower: ${modes.join(', ')}`);
    const writer = await connected(leader.clientAddress);
    const loader = await connected(ensemble.connectString());
    await call<string>((done) => writer.create('/probe', Buffer.from('0'), done));
    let loaded = 0;
    for (const size of SIZES) {
      const started = performance.now();
      await load(loader, `/bench-${String(size)}`, size);
      loaded += size + 1;
      console.log(`[backup] loaded ${String(size)} more znodes (${String(loaded)} in all) in ${((performance.now() - started) / 1000).toFixed(1)} s; load ${loadLine()}`);

      const before = probe(writer);
      await sleep(BASELINE_MS);
      const { latencies: baseline, failed: failedBefore } = await before.stop();

      const during = probe(writer);
      const startedAt = new Date();
      const id = backupIdAt(startedAt);
      const backupStarted = performance.now();
      const dumper = await treeDumperConnector(10_000)(followers.map((member) => ({ pod: `member-${String(member.id)}`, myid: member.id, ip: member.ip })), { port: followers[0]?.ports.client ?? 2181, tls: undefined }, SUPER_PASSWORD);
      const sink = new BackupWriter(store, `bench/${String(size)}/${id}/`);
      const dump = await dumper.dump(sink, 3).finally(() => dumper.close());
      const written = await sink.finish({ id, workload: { namespace: 'bench', name: 'zk', uid: 'bench' }, zxid: dump.zxid, startedAt, finishedAt: new Date() });
      const seconds = (performance.now() - backupStarted) / 1000;
      const loadDuring = loadLine();
      const { latencies: busy, failed: failedDuring } = await during.stop();
      console.log(
        `[backup] ${String(written.manifest.znodes)} znodes from follower ${followers[0]?.ip ?? ''} (leader ${leader.ip}): ${seconds.toFixed(1)} s, ` +
          `${(written.sizeBytes / 1024 / 1024).toFixed(2)} MiB in ${String(written.manifest.objects.length)} objects, ${String(dump.attempts)} walk(s), zxid ${written.manifest.zxid}; load ${loadDuring}`,
      );
      console.log(
        `[backup] write latency on the leader, a create at a time: before p50 ${percentile(baseline, 50).toFixed(1)} ms, p99 ${percentile(baseline, 99).toFixed(1)} ms (${String(baseline.length)} writes, ${String(failedBefore)} failed); ` +
          `during p50 ${percentile(busy, 50).toFixed(1)} ms, p99 ${percentile(busy, 99).toFixed(1)} ms (${String(busy.length)} writes, ${String(failedDuring)} failed)`,
      );
    }
    writer.close();
    loader.close();
  } finally {
    store.close();
    await server.stop();
    await ensemble.stopAll();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
