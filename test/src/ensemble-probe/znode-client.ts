// The writer's ZooKeeper client: node-zookeeper-client (pure JavaScript), wrapped in promises with a deadline per call;
// and createZookeeperClient, how every test and bench makes a node-zookeeper-client.
// Deliberately not the controllers' native client: the measurement must not share the code it measures, and the native
// binding's socket polling misbehaves when several handles reconnect in one process (seen on this bed).
import zookeeper, { type Client } from 'node-zookeeper-client';

const CALL_TIMEOUT_MS = 5_000;

/** The parts of node-zookeeper-client's (1.1.3) ConnectionManager that guardReplies replaces. */
interface ConnectionManagerInternals {
  pendingBuffer: Buffer | null;
  socket?: { destroy(): void };
  connect(): void;
  onSocketData(buffer: Buffer): void;
}

function connectionManagerOf(client: Client): ConnectionManagerInternals {
  const internals = (client as unknown as { connectionManager?: Partial<ConnectionManagerInternals> }).connectionManager;
  if (typeof internals?.connect !== 'function' || typeof internals.onSocketData !== 'function' || !('pendingBuffer' in internals)) {
    throw new Error('node-zookeeper-client changed: its ConnectionManager is not the one znode-client.ts guards');
  }
  return internals as ConnectionManagerInternals;
}

/**
 * node-zookeeper-client keeps the part of a reply a closed connection had sent (ConnectionManager.pendingBuffer) and
 * parses the next connection's bytes after it: the garbled header then throws "Unknown code: <n>" from the socket's
 * data handler, out of reach of any caller, and fails the test run (alexguan/node-zookeeper-client#70 and #23; here
 * during a roll, 2026-11-29, when a member restarted in the middle of a reply). Here each connection starts with
 * nothing pending, and a reply that cannot be read drops the connection, after which the client connects again. The
 * calls in flight fail with a connection loss, as when a server goes; the unreadable reply's own call, which the
 * library had already taken off its queue, fails only at its deadline (for the writer, an unacknowledged write).
 */
function guardReplies(client: Client): Client {
  const manager = connectionManagerOf(client);
  const connect = manager.connect.bind(manager);
  const onSocketData = manager.onSocketData.bind(manager);
  manager.connect = () => {
    manager.pendingBuffer = null;
    connect();
  };
  manager.onSocketData = (buffer) => {
    try {
      onSocketData(buffer);
    } catch {
      manager.pendingBuffer = null;
      manager.socket?.destroy();
    }
  };
  return client;
}

/** node-zookeeper-client's client, its replies guarded (guardReplies): the one way the tests make one. */
export function createZookeeperClient(connectString: string, options: Partial<zookeeper.Option>): Client {
  return guardReplies(zookeeper.createClient(connectString, options));
}

export class ZnodeClient {
  private expired = false;

  private constructor(
    private readonly client: Client,
    private readonly callTimeoutMs: number,
  ) {
    client.on('expired', () => {
      this.expired = true;
    });
  }

  /** Connects to any of `connectString`'s servers; rejects after `timeoutMs` without a session. */
  static connect(connectString: string, timeoutMs = 10_000, callTimeoutMs = CALL_TIMEOUT_MS): Promise<ZnodeClient> {
    const client = createZookeeperClient(connectString, { sessionTimeout: 6_000, spinDelay: 200, retries: 1_000 });
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        client.close();
        reject(new Error(`no ZooKeeper session via ${connectString} within ${String(timeoutMs)} ms`));
      }, timeoutMs);
      client.once('connected', () => {
        clearTimeout(timer);
        resolve(new ZnodeClient(client, callTimeoutMs));
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
      const timer = setTimeout(() => reject(new Error(`${operation}: no answer within ${String(this.callTimeoutMs)} ms`)), this.callTimeoutMs);
      start((error, value) => {
        clearTimeout(timer);
        if (error === null || error === undefined) resolve(value);
        else reject(error instanceof Error ? error : new Error(String(error)));
      });
    });
  }
}
