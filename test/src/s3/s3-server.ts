// A real S3-compatible server for the backup tests: VersityGW (`versitygw posix`, whose buckets are directories and
// objects files), built from its Go module by test/versitygw/build.sh, in a directory of its own, on loopback or the
// bed's address, with one access key and the buckets the caller names made before it counts as ready.
import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { CreateBucketCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { pino, type Logger } from 'pino';
import { builtBy } from '../controllers/go-built.js';
import { freePorts } from '../bed/ports.js';
import { exitEndsWait, startWhenReady, type ManagedProcess } from '../bed/process.js';
import { waitFor } from '../wait-for.js';

export interface S3Server {
  /** http://<host>:<port> of its S3 API. */
  readonly endpoint: string;
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  /** The region requests are signed for. */
  readonly region: string;
  /** Where its data and log are. */
  readonly dir: string;
  stop(): Promise<void>;
}

export interface StartS3ServerOptions {
  /** Its buckets go in `<dir>/data`, their objects' metadata in `<dir>/meta`, its log in `<dir>/logs/versitygw.log`. */
  readonly dir: string;
  /** Buckets made before it counts as ready. */
  readonly buckets: readonly string[];
  /** The only address it listens on: 127.0.0.1 when omitted; the bed's address when pods connect too. */
  readonly host?: string;
  readonly log?: Logger;
}

/** It answers within a second of its start; a build, if needed, runs before it. */
const READY_TIMEOUT_MS = 60_000;
/** It stops within a second of SIGTERM; a SIGKILL after this. */
const STOP_GRACE_MS = 5_000;

/**
 * Listening on `host:port` only. Objects' metadata (content type, ETag) go in a sidecar directory rather than in
 * extended attributes, which not every filesystem a temporary directory lands on keeps.
 */
function serverArgs(host: string, port: number, dataDir: string, metaDir: string): string[] {
  return ['--port', `${host}:${String(port)}`, '--quiet', 'posix', '--sidecar', metaDir, dataDir];
}

/** Its one account, the root user's (single-account mode), from the environment rather than `ps`'s view of its args. */
function accountEnv(accessKeyId: string, secretAccessKey: string): NodeJS.ProcessEnv {
  return { ...process.env, ROOT_ACCESS_KEY_ID: accessKeyId, ROOT_SECRET_ACCESS_KEY: secretAccessKey };
}

async function makeBucket(client: S3Client, bucket: string): Promise<true> {
  try {
    await client.send(new CreateBucketCommand({ Bucket: bucket }));
  } catch (error) {
    if (!(error instanceof S3ServiceException && error.name === 'BucketAlreadyOwnedByYou')) throw error;
  }
  return true;
}

export async function startS3Server(options: StartS3ServerOptions): Promise<S3Server> {
  const log = (options.log ?? pino({ level: 'silent' })).child({ component: 'versitygw' });
  const host = options.host ?? '127.0.0.1';
  const binary = builtBy('versitygw');
  const dataDir = join(options.dir, 'data');
  const metaDir = join(options.dir, 'meta');
  await mkdir(dataDir, { recursive: true });
  await mkdir(metaDir, { recursive: true });
  const accessKeyId = `zkoam${randomBytes(6).toString('hex')}`;
  const secretAccessKey = randomBytes(24).toString('base64url');
  const [port] = await freePorts(1);
  if (port === undefined) throw new Error('no free port for the S3 server');
  const endpoint = `http://${host}:${String(port)}`;
  const region = 'us-east-1';
  const client = new S3Client({ endpoint, region, forcePathStyle: true, credentials: { accessKeyId, secretAccessKey }, maxAttempts: 1 });
  const t0 = Date.now();
  log.info({ endpoint, dir: options.dir }, 'starting versitygw');
  let server: ManagedProcess | undefined;
  try {
    server = await startWhenReady(
      { name: 'versitygw', command: binary, args: serverArgs(host, port, dataDir, metaDir), env: accountEnv(accessKeyId, secretAccessKey), bedDir: options.dir },
      async (started) => {
        for (const bucket of options.buckets) {
          await waitFor(`versitygw to make bucket ${bucket}`, () => makeBucket(client, bucket), () => true, READY_TIMEOUT_MS, 100, exitEndsWait([started]));
        }
      },
    );
  } finally {
    client.destroy();
  }
  log.info({ endpoint, pid: server.pid, buckets: options.buckets, ms: Date.now() - t0 }, 'versitygw is ready');
  const running = server;
  return {
    endpoint,
    accessKeyId,
    secretAccessKey,
    region,
    dir: options.dir,
    stop: async () => {
      await running.stop(STOP_GRACE_MS);
      log.info({ endpoint }, 'versitygw stopped');
    },
  };
}
