// A client that writes sequential znodes without pause while an operation runs, and afterwards checks that every
// write ZooKeeper acknowledged is still there (invariant 5). Writes whose outcome is unknown (connection lost while in
// flight) are counted apart: they may or may not have been committed, so they are neither "acknowledged" nor "lost".
import { waitFor, WaitTimeoutError } from '../wait-for.js';
import { ZnodeClient } from './znode-client.js';
import { pause } from '@zk-oam/runtime';

/** How long a shortfall is read again before it is reported as lost: a follower catches up within milliseconds. */
const READ_BACK_MS = 10_000;

export interface ContinuousWriterOptions {
  /** The members to connect to (`ip:port,...`), read again each time the writer opens a session. */
  readonly connectString: () => string | Promise<string>;
  /** A parent znode of its own; created when missing. */
  readonly root: string;
  /** Pause between two writes. Default 20 ms. */
  readonly intervalMs?: number;
}

export interface WriterReport {
  readonly acknowledged: number;
  /** Writes that failed or whose answer was lost; not counted as acknowledged. */
  readonly unacknowledged: number;
  /** Acknowledged writes missing afterwards: must be zero. */
  readonly lost: readonly string[];
  /** The longest time between two acknowledged writes, i.e. the longest the ensemble took no writes from us. */
  readonly longestGapMs: number;
  /** performance.now() when the longest gap ended (its first write after it was acknowledged). */
  readonly longestGapEndedAt: number;
  /** Sessions opened (more than one: the writer had to reconnect after its session expired or its members went). */
  readonly sessions: number;
}

/** Consecutive failures after which the session is replaced (its members may all have left the ensemble). */
const REOPEN_AFTER_FAILURES = 5;

export class ContinuousWriter {
  private readonly acknowledged: string[] = [];
  private unacknowledged = 0;
  private longestGapMs = 0;
  private longestGapEndedAt = 0;
  private lastAckAt = performance.now();
  private sessions = 0;
  private lastFailure: string | undefined;
  private stopped = false;
  private session: ZnodeClient | undefined;
  private readonly loop: Promise<void>;

  private constructor(private readonly options: ContinuousWriterOptions) {
    this.loop = this.run();
  }

  /** Starts writing once the first session is open and the root exists. */
  static async start(options: ContinuousWriterOptions): Promise<ContinuousWriter> {
    const writer = new ContinuousWriter(options);
    await writer.waitForFirstWrite();
    return writer;
  }

  /** Acknowledged writes so far. */
  get count(): number {
    return this.acknowledged.length;
  }

  /** Why the last write or session failed, for a test's wait message. */
  get lastError(): string | undefined {
    return this.lastFailure;
  }

  /** Stops writing, then reads the root back through a fresh session and reports. */
  async stop(): Promise<WriterReport> {
    this.stopped = true;
    await this.loop;
    this.session?.close();
    const lost = await this.missingAfterReadBack();
    return {
      acknowledged: this.acknowledged.length,
      unacknowledged: this.unacknowledged,
      lost,
      longestGapMs: Math.round(this.longestGapMs),
      longestGapEndedAt: this.longestGapEndedAt,
      sessions: this.sessions,
    };
  }

  private async waitForFirstWrite(): Promise<void> {
    await waitFor(`a first write under ${this.options.root}`, () => Promise.resolve(this.acknowledged.length), (count) => count > 0, 60_000, 50);
    this.lastAckAt = performance.now();
    this.longestGapMs = 0;
  }

  private async open(): Promise<ZnodeClient> {
    const session = await ZnodeClient.connect(await this.options.connectString());
    this.sessions += 1;
    try {
      await session.ensure(this.options.root);
    } catch (error: unknown) {
      session.close();
      throw error;
    }
    return session;
  }

  private async run(): Promise<void> {
    let failures = 0;
    let sequence = 0;
    while (!this.stopped) {
      let writing = false;
      try {
        this.session ??= await this.open();
        const session = this.session;
        sequence += 1;
        writing = true;
        this.recordAck(await session.createSequential(`${this.options.root}/w-`, String(sequence)));
        failures = 0;
      } catch (error: unknown) {
        if (writing) this.unacknowledged += 1;
        this.lastFailure = String(error);
        failures += 1;
        if (failures >= REOPEN_AFTER_FAILURES || this.session?.isExpired === true) {
          this.session?.close();
          this.session = undefined;
          failures = 0;
        }
        await pause(100);
        continue;
      }
      await pause(this.options.intervalMs ?? 20);
    }
  }

  private recordAck(path: string): void {
    const now = performance.now();
    if (now - this.lastAckAt > this.longestGapMs) {
      this.longestGapMs = now - this.lastAckAt;
      this.longestGapEndedAt = now;
    }
    this.lastAckAt = now;
    this.acknowledged.push(path);
  }

  /**
   * Acknowledged writes missing from the root's children. A new session may land on a follower a little behind the
   * leader, so a shortfall (or a failed read) is read again for READ_BACK_MS; what is still missing then is lost.
   */
  private async missingAfterReadBack(): Promise<string[]> {
    const missing = async (): Promise<string[]> => {
      const session = await ZnodeClient.connect(await this.options.connectString());
      try {
        const present = new Set((await session.children(this.options.root)).map((name) => `${this.options.root}/${name}`));
        return this.acknowledged.filter((path) => !present.has(path));
      } finally {
        session.close();
      }
    };
    try {
      return await waitFor(`every acknowledged write under ${this.options.root} read back`, missing, (paths) => paths.length === 0, READ_BACK_MS);
    } catch (error) {
      if (!(error instanceof WaitTimeoutError)) throw error;
      return missing();
    }
  }
}
