// `npm run bench:restore`: what the restore of a backup costs, without Kubernetes around it: a backup of N znodes
// (in path order, 100 children a parent, 32 bytes of data each, a third with a digest ACL) packed as the backup
// controller packs one and uploaded to VersityGW; then, against a fresh one-member ZooKeeper 3.8 each time, the
// restore's two halves as the workload controller runs them: reading the backup back and verifying it whole
// (readVerifiedBackup: download, size and SHA-256 of every object, decode), and writing it through the superuser's
// session (the never-merge check of what the ensemble holds, then the writes). ZKOAM_BENCH_ZNODES (default
// `10000,100000`) and ZKOAM_BENCH_REPS (default 1) choose the runs. Prints one table; the machine's load with it.
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { MANIFEST_OBJECT, type ZnodeRecord } from '@zk-oam/apis';
import { packBackup } from '@zk-oam/backup';
import { s3Store } from '@zk-oam/backup/store/s3';
import { readVerifiedBackup } from '@zk-oam/backup/store';
import { treeRestorerConnector } from '@zk-oam/zookeeper';
import { pino } from 'pino';
import { startS3Server } from '../src/s3/s3-server.js';
import { startLocalEnsemble } from '../src/zookeeper-local/index.js';
import { cell } from './figures.js';

const SIZES = (process.env['ZKOAM_BENCH_ZNODES'] ?? '10000,100000').split(',').map(Number);
const REPS = Number(process.env['ZKOAM_BENCH_REPS'] ?? 1);
const BUCKET = 'bench';
/** The one backup id of every run: each size has its own prefix. */
const ID = '20261129T000000.000Z';
const SUPER_PASSWORD = 'bench-super';
const FANOUT = 100;
const log = pino({ name: 'bench-restore', level: process.env['LOG_LEVEL'] ?? 'warn' }, pino.destination(2));

function say(line: string): void {
  process.stderr.write(`[bench] ${line}\n`);
}

/** `count` records in path order: /t, /t/p<i> parents of FANOUT leaves each. */
function records(count: number): ZnodeRecord[] {
  const open = [{ perms: 31, scheme: 'world', id: 'anyone' }];
  const owned = [{ perms: 31, scheme: 'digest', id: 'alice:Lc0Ml2m1GZ2G9kLpXWI0cwvJc7k=' }];
  const out: ZnodeRecord[] = [{ path: '/', data: '', acl: open }, { path: '/t', data: '', acl: open }];
  for (let parent = 0; out.length < count; parent++) {
    const base = `/t/p${String(parent).padStart(6, '0')}`;
    out.push({ path: base, data: '', acl: open });
    for (let leaf = 0; leaf < FANOUT && out.length < count; leaf++) {
      out.push({ path: `${base}/n${String(leaf).padStart(3, '0')}`, data: Buffer.alloc(32, leaf).toString('base64'), acl: leaf % 3 === 0 ? owned : open });
    }
  }
  return out;
}

interface Run {
  readonly verifyS: number;
  readonly writeS: number;
  readonly sizeBytes: number;
}

async function runOnce(count: number, prefix: string, endpoint: { endpoint: string; region: string; accessKeyId: string; secretAccessKey: string }, dir: string): Promise<Run> {
  const store = s3Store({ ...endpoint, bucket: BUCKET, forcePathStyle: true, ca: undefined, requestTimeoutMs: 60_000 });
  const ensemble = await startLocalEnsemble({ size: 1, dir, superPassword: SUPER_PASSWORD, ipPrefix: '127.0.11', basePort: 12181, log });
  try {
    const started = Date.now();
    const backup = await readVerifiedBackup(store, prefix, ID);
    const verifyS = (Date.now() - started) / 1000;
    const znodes = backup.records.map((record) => ({ path: record.path, data: Buffer.from(record.data, 'base64'), acl: record.acl }));
    const member = ensemble.member(1);
    const restorer = await treeRestorerConnector(30_000)([{ pod: 'bench-0', myid: 1, ip: member.ip }], { port: 12181, tls: undefined }, SUPER_PASSWORD);
    try {
      const writing = Date.now();
      const existing = await restorer.existingPaths();
      if (existing.length > 0) throw new Error(`the fresh ensemble holds ${String(existing.length)} znodes`);
      const created = await restorer.write(znodes);
      const writeS = (Date.now() - writing) / 1000;
      if (created !== count - 1) throw new Error(`created ${String(created)} of ${String(count - 1)}`);
      if ((await restorer.existingPaths()).length !== count - 1) throw new Error('the ensemble does not hold every znode written');
      return { verifyS, writeS, sizeBytes: backup.sizeBytes };
    } finally {
      restorer.close();
    }
  } finally {
    await ensemble.stopAll();
    store.close();
  }
}


async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'zkoam-bench-restore-'));
  const server = await startS3Server({ dir: join(dir, 's3'), buckets: [BUCKET], log });
  const endpoint = { endpoint: server.endpoint, region: server.region, accessKeyId: server.accessKeyId, secretAccessKey: server.secretAccessKey };
  const rows: string[] = [];
  try {
    for (const count of SIZES) {
      const prefix = `bench/${String(count)}/`;
      const packed = packBackup(records(count), { id: ID, workload: { namespace: 'bench', name: 'zk', uid: 'u' }, zxid: 1n, startedAt: new Date(), finishedAt: new Date() });
      const uploader = s3Store({ ...endpoint, bucket: BUCKET, forcePathStyle: true, ca: undefined, requestTimeoutMs: 60_000 });
      for (const object of packed.objects) await uploader.put(`${prefix}${ID}/${object.name}`, object.body, 'application/gzip');
      await uploader.put(`${prefix}${ID}/${MANIFEST_OBJECT}`, Buffer.from(JSON.stringify(packed.manifest)), 'application/json');
      uploader.close();
      const runs: Run[] = [];
      for (let rep = 0; rep < REPS; rep++) {
        say(`${String(count)} znodes, run ${String(rep + 1)}/${String(REPS)} (load ${loadavg().map((load) => load.toFixed(1)).join(' ')})`);
        runs.push(await runOnce(count, prefix, endpoint, join(dir, `zk-${String(count)}-${String(rep)}`)));
      }
      const rate = runs.map((run) => count / run.writeS);
      rows.push(
        `| ${String(count)} | ${(runs[0]?.sizeBytes ?? 0).toLocaleString('en')} | ${cell(runs.map((run) => run.verifyS), 2)} | ${cell(runs.map((run) => run.writeS), 2)} | ` +
          `${cell(runs.map((run) => run.verifyS + run.writeS), 2)} | ${cell(rate, 0)} |`,
      );
    }
  } finally {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  }
  process.stdout.write(
    ['| znodes | backup bytes | read + verify (s) | check + write (s) | restore (s) | znodes written/s |', '| --- | --- | --- | --- | --- | --- |', ...rows].join('\n') +
      `\nload average after: ${loadavg().map((load) => load.toFixed(1)).join(' ')} (2 cores); ${String(REPS)} run(s) each, median (min-max)\n`,
  );
}

await main();
