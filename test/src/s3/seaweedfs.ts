// A real S3-compatible object store for the backup tests: SeaweedFS' `weed server` (master, volume server, filer and S3
// gateway in one process), built from its Go module by test/seaweedfs/build.sh, in a directory of its own, on loopback
// or the bed's address, with one access key and the buckets the caller names made before it counts as ready.
import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CreateBucketCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { pino, type Logger } from 'pino';
import { builtBy } from '../controllers/go-built.js';
import { freePorts } from '../bed/ports.js';
import { exitEndsWait, startWhenReady, type ManagedProcess } from '../bed/process.js';
import { waitFor } from '../wait-for.js';

export interface SeaweedFs {
  /** http://<host>:<port> of the S3 gateway. */
  readonly endpoint: string;
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  /** The region requests are signed for: SeaweedFS accepts any. */
  readonly region: string;
  /** Where its data and log are. */
  readonly dir: string;
  stop(): Promise<void>;
}

export interface StartSeaweedFsOptions {
  /** Its data go in `<dir>/data`, its log in `<dir>/logs/seaweedfs.log`. */
  readonly dir: string;
  /** Buckets made before it counts as ready. */
  readonly buckets: readonly string[];
  /** The only address it listens on: 127.0.0.1 when omitted; the bed's address when pods connect too. */
  readonly host?: string;
  readonly log?: Logger;
}

/** A cold start (master election, the first volume) takes a few seconds; a build, if needed, runs before it. */
const READY_TIMEOUT_MS = 60_000;
/** It stops within a second of SIGTERM; a SIGKILL after this. */
const STOP_GRACE_MS = 5_000;

/** The access key as SeaweedFS' S3 gateway reads identities (its -s3.config file): one that may do everything. */
export function renderS3Config(accessKeyId: string, secretAccessKey: string): string {
  const identity = { name: 'zkoam', credentials: [{ accessKey: accessKeyId, secretKey: secretAccessKey }], actions: ['Admin', 'Read', 'List', 'Tagging', 'Write'] };
  return `${JSON.stringify({ identities: [identity] }, undefined, 2)}\n`;
}

/** Every port `weed server` opens, explicit or off, so that two beds (or a bed and a developer's own) never collide. */
function serverArgs(host: string, dataDir: string, configFile: string, ports: readonly number[]): string[] {
  const [master, masterGrpc, volume, volumeGrpc, filer, filerGrpc, s3, s3Grpc] = ports.map(String);
  return [
    'server',
    `-dir=${dataDir}`,
    `-ip=${host}`,
    `-ip.bind=${host}`,
    `-master.port=${master ?? ''}`,
    `-master.port.grpc=${masterGrpc ?? ''}`,
    // Small volumes: the default is 30 GB each, preallocated lazily but counted against the disk.
    '-master.volumeSizeLimitMB=64',
    `-volume.port=${volume ?? ''}`,
    `-volume.port.grpc=${volumeGrpc ?? ''}`,
    '-volume.max=16',
    '-filer',
    `-filer.port=${filer ?? ''}`,
    `-filer.port.grpc=${filerGrpc ?? ''}`,
    '-s3',
    `-s3.port=${s3 ?? ''}`,
    `-s3.port.grpc=${s3Grpc ?? ''}`,
    `-s3.config=${configFile}`,
    // The Iceberg and Lance endpoints beside S3 have fixed default ports (8181, 9101): off, so that two never collide.
    '-s3.port.iceberg=0',
    '-s3.port.lance=0',
    `-filer.localSocket=${join(dataDir, 'filer.sock')}`,
    `-s3.localSocket=${join(dataDir, 's3.sock')}`,
  ];
}

async function makeBucket(client: S3Client, bucket: string): Promise<true> {
  try {
    await client.send(new CreateBucketCommand({ Bucket: bucket }));
  } catch (error) {
    if (!(error instanceof S3ServiceException && error.name === 'BucketAlreadyOwnedByYou')) throw error;
  }
  return true;
}

export async function startSeaweedFs(options: StartSeaweedFsOptions): Promise<SeaweedFs> {
  const log = (options.log ?? pino({ level: 'silent' })).child({ component: 'seaweedfs' });
  const host = options.host ?? '127.0.0.1';
  const binary = builtBy('seaweedfs');
  const dataDir = join(options.dir, 'data');
  await mkdir(dataDir, { recursive: true });
  const accessKeyId = `zkoam${randomBytes(6).toString('hex')}`;
  const secretAccessKey = randomBytes(24).toString('base64url');
  const configFile = join(options.dir, 's3.json');
  await writeFile(configFile, renderS3Config(accessKeyId, secretAccessKey), { mode: 0o600 });
  const ports = await freePorts(8);
  const endpoint = `http://${host}:${String(ports[6])}`;
  const region = 'us-east-1';
  const client = new S3Client({ endpoint, region, forcePathStyle: true, credentials: { accessKeyId, secretAccessKey }, maxAttempts: 1 });
  const t0 = Date.now();
  log.info({ endpoint, dir: options.dir }, 'starting seaweedfs');
  let server: ManagedProcess | undefined;
  try {
    server = await startWhenReady(
      { name: 'seaweedfs', command: binary, args: serverArgs(host, dataDir, configFile, ports), bedDir: options.dir },
      async (started) => {
        for (const bucket of options.buckets) {
          await waitFor(`seaweedfs to make bucket ${bucket}`, () => makeBucket(client, bucket), () => true, READY_TIMEOUT_MS, 250, exitEndsWait([started]));
        }
      },
    );
  } finally {
    client.destroy();
  }
  log.info({ endpoint, pid: server.pid, buckets: options.buckets, ms: Date.now() - t0 }, 'seaweedfs is ready');
  const running = server;
  return {
    endpoint,
    accessKeyId,
    secretAccessKey,
    region,
    dir: options.dir,
    stop: async () => {
      await running.stop(STOP_GRACE_MS);
      log.info({ endpoint }, 'seaweedfs stopped');
    },
  };
}
