// The operator's ZooKeeper admin client: superuser auth, committed config, sync, incremental reconfig, confirm-by-write.
import type { Logger } from 'pino';
import type { DynamicConfig } from '../dynamic-config/config.js';
import { formatJoining, formatLeaving, type ReconfigDelta } from '../dynamic-config/delta.js';
import type { ServerEntry } from '../dynamic-config/server-line.js';
import type { Zxid } from '../zxid.js';
import { checkReadBack, committedConfigOf, confirmToken, malformedAnswer } from './answers.js';
import { ZOO_CODES } from './codes.js';
import type { ZooKeeperOperationError } from './errors.js';
import type { HandleGate } from './handle-gate.js';
import { openSession, type Session } from './session.js';
import { settleReconfig, type SettleReconfigOptions } from './settle-reconfig.js';
import { superCredential } from './super-digest.js';

export interface AdminClientOptions {
  connectString: string;
  /** When set, the session authenticates as ZooKeeper's superuser (needed for reconfig). */
  superPassword?: string;
  /** Default 10 s. */
  connectTimeoutMs?: number;
  /** Default 10 s. */
  sessionTimeoutMs?: number;
  /** Default 30 s. */
  operationTimeoutMs?: number;
  /** One native handle per process at a time: pass the process's gate. */
  gate?: HandleGate;
  log?: Logger;
}

/** A configuration as committed in `/zookeeper/config`: version always known. */
export interface CommittedConfig extends DynamicConfig {
  version: Zxid;
}

export interface ConfirmedWrite {
  path: string;
  /** The zxid of the write, i.e. the write went through the current quorum. */
  zxid: bigint;
}

/** Znode the operator writes to prove that the quorum accepts writes (invariant 2: "committed and confirmed"). */
export const CONFIRM_ZNODE = '/zk-oam-confirm';

export class ZooKeeperAdmin {
  private constructor(
    private readonly session: Session,
    private readonly log: Logger | undefined,
  ) {}

  static async connect(options: AdminClientOptions): Promise<ZooKeeperAdmin> {
    const session = await openSession({
      connectString: options.connectString,
      connectTimeoutMs: options.connectTimeoutMs ?? 10_000,
      sessionTimeoutMs: options.sessionTimeoutMs ?? 10_000,
      operationTimeoutMs: options.operationTimeoutMs ?? 30_000,
      ...(options.gate === undefined ? {} : { gate: options.gate }),
    });
    try {
      if (options.superPassword !== undefined) {
        const credential = superCredential(options.superPassword);
        await session.call('addAuth', (handle, done) => handle.add_auth('digest', credential, done));
      }
    } catch (error: unknown) {
      session.close();
      throw error;
    }
    options.log?.debug({ connectString: options.connectString }, 'ZooKeeper admin session open');
    return new ZooKeeperAdmin(session, options.log);
  }

  get connectString(): string {
    return this.session.connectString;
  }

  /** The committed configuration (`/zookeeper/config`) as the connected server knows it; call sync() first for the latest. */
  async getConfig(): Promise<CommittedConfig> {
    const outcome = await this.session.call('getConfig', (handle, done) => handle.a_getconfig(false, done));
    return this.committed('getConfig', outcome.second);
  }

  /** Brings the connected server up to date with the leader. */
  async sync(path = '/'): Promise<void> {
    await this.session.call('sync', (handle, done) => handle.a_sync(path, done));
  }

  /**
   * Incremental reconfig, guarded by the version it was computed from: ZBADVERSION if the config moved meanwhile.
   * Resolves with the new committed configuration.
   */
  async reconfig(delta: ReconfigDelta, fromVersion: Zxid): Promise<CommittedConfig> {
    const joining = formatJoining(delta) ?? null;
    const leaving = formatLeaving(delta) ?? null;
    const version = safeNumber(fromVersion.value);
    this.log?.info({ joining, leaving, fromVersion: fromVersion.value.toString(16) }, 'ZooKeeper reconfig');
    const outcome = await this.session.call('reconfig', (handle, done) =>
      handle.a_reconfig(joining, leaving, null, version, done),
    );
    const config = this.committed('reconfig', outcome.second);
    this.log?.info({ version: config.version.value.toString(16), servers: config.servers.length }, 'ZooKeeper reconfig committed');
    return config;
  }

  /**
   * Idempotent: brings the committed membership to `target` from whatever it is now. A reconfig whose answer is
   * lost with the connection (removing the leader does that) is settled by re-reading the committed config.
   */
  reconfigTo(target: readonly ServerEntry[], options: SettleReconfigOptions = {}): Promise<CommittedConfig> {
    return settleReconfig(this, target, { ...options, log: this.log });
  }

  /** Creates a persistent znode; "already exists" counts as success. */
  async ensureZnode(path: string, data = ''): Promise<void> {
    await this.session.call(
      'create',
      (handle, done) => handle.a_create(path, data, 0, done),
      [ZOO_CODES.ZNODEEXISTS],
    );
  }

  /** Writes a fresh value to the confirm znode and reads it back after a sync: proof that the quorum commits writes. */
  async confirmByWrite(path = CONFIRM_ZNODE): Promise<ConfirmedWrite> {
    await this.ensureZnode(path);
    const token = confirmToken();
    const written = await this.session.call('confirm write', (handle, done) => handle.a_set(path, token, -1, done));
    await this.sync(path);
    const read = await this.session.call('confirm read', (handle, done) => handle.a_get(path, false, done));
    checkReadBack(Buffer.isBuffer(read.second) ? read.second.toString('utf8') : String(read.second), token, this.connectString);
    const zxid = statZxid(written.first);
    if (zxid === undefined) {
      throw this.malformed('confirm write', 'no stat in the answer');
    }
    return { path, zxid };
  }

  /** Ends the session and releases the native handle; safe to call twice. */
  close(): void {
    this.session.close();
  }

  private committed(operation: string, data: unknown): CommittedConfig {
    return committedConfigOf(data, { operation, connectString: this.connectString });
  }

  private malformed(operation: string, detail: string): ZooKeeperOperationError {
    return malformedAnswer({ operation, connectString: this.connectString }, detail);
  }
}

function safeNumber(value: bigint): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new RangeError(`config version ${value.toString(16)} does not fit the client's number argument`);
  }
  return Number(value);
}

/** The binding reports 64-bit zxids as doubles: exact while the epoch stays below 2^21. */
function statZxid(stat: unknown): bigint | undefined {
  if (typeof stat === 'object' && stat !== null && 'mzxid' in stat && typeof stat.mzxid === 'number') {
    return BigInt(stat.mzxid);
  }
  return undefined;
}
