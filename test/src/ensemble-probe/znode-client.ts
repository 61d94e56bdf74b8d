// The writer's ZooKeeper client: node-zookeeper-client (pure JavaScript), wrapped in promises with a deadline per call.
// Deliberately not the controllers' native client: the measurement must not share the code it measures, and the native
// binding's socket polling misbehaves when several handles reconnect in one process (seen on this bed).
import zookeeper, { type Client } from 'node-zookeeper-client';

const CALL_TIMEOUT_MS = 5_000;

export class ZnodeClient {
  private expired = false;

  private constructor(private readonly client: Client) {
    client.on('expired', () => {
      this.expired = true;
    });
  }

  /** Connects to any of `connectString`'s servers; rejects after `timeoutMs` without a session. */
  static connect(connectString: string, timeoutMs = 10_000): Promise<ZnodeClient> {
    const client = zookeeper.createClient(connectString, { sessionTimeout: 6_000, spinDelay: 200, retries: 1_000 });
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        client.close();
        reject(new Error(`no ZooKeeper session via ${connectString} within ${String(timeoutMs)} ms`));
      }, timeoutMs);
      client.once('connected', () => {
        clearTimeout(timer);
        resolve(new ZnodeClient(client));
      });
      client.connect();
    });
  }

  /** Whether the server expired this session: it can do nothing more, a new one is needed. */
  get isExpired(): boolean {
    return this.expired;
  }

  /** Creates `path` (persistent); "already exists" is success. */
  ensure(path: string): Promise<void> {
    return this.call<string>('create', (done) => this.client.create(path, done)).then(
      () => undefined,
      (error: unknown) => {
        if (error instanceof zookeeper.Exception && error.getCode() === zookeeper.Exception.NODE_EXISTS) return undefined;
        throw error;
      },
    );
  }

  /** Creates a persistent sequential child of `prefix`; resolves with the name ZooKeeper gave it. */
  createSequential(prefix: string, data: string): Promise<string> {
    return this.call<string>('create', (done) => this.client.create(prefix, Buffer.from(data), zookeeper.CreateMode.PERSISTENT_SEQUENTIAL, done));
  }

  children(path: string): Promise<string[]> {
    return this.call<string[]>('getChildren', (done) => this.client.getChildren(path, done));
  }

  close(): void {
    this.client.close();
  }

  private call<T>(operation: string, start: (done: (error: unknown, value: T) => void) => void): Promise<T> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${operation}: no answer within ${String(CALL_TIMEOUT_MS)} ms`)), CALL_TIMEOUT_MS);
      start((error, value) => {
        clearTimeout(timer);
        if (error === null || error === undefined) resolve(value);
        else reject(error instanceof Error ? error : new Error(String(error)));
      });
    });
  }
}
