// One ZooKeeper session speaking the client protocol directly, over TLS or plain TCP. The npm binding's C client is
// never initialised for TLS (it does not call zookeeper_init_ssl), so the superuser's reconfig on a TLS-only ensemble
// goes through this; and the binding creates every znode with the open ACL, so a tenant's path, which must be born with
// its own ACL, goes through this on either port. Over TLS it verifies the member's chain to the CA and the DNS name its
// certificate must carry. It correlates replies by xid, pings at a third of the negotiated timeout, and fails every
// call in flight when the socket goes.
import { once } from 'node:events';
import { connect as connectTcp, type Socket } from 'node:net';
import { checkServerIdentity, connect as connectTls } from 'node:tls';
import { ZooKeeperConnectionError, ZooKeeperOperationError } from '../admin/errors.js';
import { FrameSplitter, JuteReader } from './jute.js';
import { connectRequest, OP_CODES, parseConnectResponse, readReplyHeader, RESERVED_XIDS, requestPacket, type Body, type ReplyHeader } from './packets.js';

/** A member's client port, dialled by IP, and over TLS the name its certificate carries. */
export interface WireEndpoint {
  readonly host: string;
  readonly port: number;
  /** Checked against the member's certificate; only over TLS. */
  readonly serverName?: string;
}

/** A member's secure client port: always with the name its certificate carries. */
export interface SecureEndpoint extends WireEndpoint {
  readonly serverName: string;
}

export interface WireSessionOptions {
  /** PEM of the CA the members' certificates chain to: the session goes over TLS when set, in plain TCP when not. */
  readonly ca: string | undefined;
  readonly connectTimeoutMs: number;
  readonly sessionTimeoutMs: number;
  readonly operationTimeoutMs: number;
}

export interface Reply {
  readonly header: ReplyHeader;
  /** The body after the header. */
  readonly body: JuteReader;
}

interface Pending {
  readonly operation: string;
  readonly accept: readonly number[];
  readonly resolve: (reply: Reply) => void;
  readonly reject: (error: Error) => void;
  readonly timer: NodeJS.Timeout;
}

export class WireSession {
  private nextXid = 1;
  private readonly pending = new Map<number, Pending>();
  private closed: Error | undefined;
  private readonly pinger: NodeJS.Timeout;

  private constructor(
    private readonly socket: Socket,
    splitter: FrameSplitter,
    readonly address: string,
    private readonly options: WireSessionOptions,
    negotiatedTimeoutMs: number,
  ) {
    socket.on('data', (chunk: Buffer) => {
      for (const packet of splitter.push(chunk)) this.receive(packet);
    });
    socket.on('error', (error: Error) => this.fail(error.message));
    socket.on('close', () => this.fail('connection closed'));
    // ZooKeeper's keep-alive for as long as the session lives, not a wait: a ping a third of the session timeout apart.
    this.pinger = setInterval(() => this.ping(), Math.max(negotiatedTimeoutMs / 3, 500));
  }

  /** Opens a session with the member: TLS handshake (over TLS), then ZooKeeper's, both within the connect timeout. */
  static async open(endpoint: WireEndpoint, options: WireSessionOptions): Promise<WireSession> {
    const address = `${endpoint.host}:${String(endpoint.port)}`;
    const { ca } = options;
    const serverName = endpoint.serverName ?? endpoint.host;
    const socket =
      ca === undefined
        ? connectTcp({ host: endpoint.host, port: endpoint.port })
        : connectTls({ host: endpoint.host, port: endpoint.port, ca, checkServerIdentity: (_host, certificate) => checkServerIdentity(serverName, certificate) });
    const splitter = new FrameSplitter();
    const deadline = AbortSignal.timeout(options.connectTimeoutMs);
    try {
      await once(socket, ca === undefined ? 'connect' : 'secureConnect', { signal: deadline });
      socket.write(connectRequest(options.sessionTimeoutMs));
      const response = await firstPacket(socket, splitter, deadline);
      const { timeoutMs } = parseConnectResponse(response);
      if (timeoutMs <= 0) throw new Error('the server refused the session');
      return new WireSession(socket, splitter, address, options, timeoutMs);
    } catch (error) {
      socket.destroy();
      const message = deadline.aborted ? `no session within ${String(options.connectTimeoutMs)} ms` : error instanceof Error ? error.message : String(error);
      throw new ZooKeeperConnectionError(message, { operation: 'connect', connectString: address }, { cause: error });
    }
  }

  /** Sends one request; resolves with its reply, rejects when ZooKeeper refuses it (unless the code is accepted). */
  call(operation: string, opCode: number, write?: Body, accept: readonly number[] = []): Promise<Reply> {
    const xid = opCode === OP_CODES.auth ? RESERVED_XIDS.auth : this.nextXid++;
    return new Promise<Reply>((resolve, reject) => {
      if (this.closed !== undefined) {
        reject(this.connectionError(operation, this.closed.message));
        return;
      }
      // The call's deadline, not a wait: the answer races it.
      const timer = setTimeout(() => {
        this.pending.delete(xid);
        reject(this.connectionError(operation, `no answer within ${String(this.options.operationTimeoutMs)} ms`));
      }, this.options.operationTimeoutMs);
      this.pending.set(xid, { operation, accept, resolve, reject, timer });
      this.socket.write(requestPacket(xid, opCode, write));
    });
  }

  /** Ends the session on the server too, so nothing waits for it to expire; safe to call twice. */
  close(): void {
    if (this.closed === undefined) this.socket.end(requestPacket(this.nextXid++, OP_CODES.closeSession));
    this.fail('session closed by the client');
    clearInterval(this.pinger);
  }

  private receive(packet: Buffer): void {
    const body = new JuteReader(packet);
    const header = readReplyHeader(body);
    if (header.xid === RESERVED_XIDS.ping || header.xid === RESERVED_XIDS.notification) return;
    const waiting = this.pending.get(header.xid);
    if (waiting === undefined) return;
    this.pending.delete(header.xid);
    clearTimeout(waiting.timer);
    if (header.err === 0 || waiting.accept.includes(header.err)) waiting.resolve({ header, body });
    else waiting.reject(new ZooKeeperOperationError({ operation: waiting.operation, connectString: this.address, code: header.err }));
  }

  private ping(): void {
    if (this.closed === undefined) this.socket.write(requestPacket(RESERVED_XIDS.ping, OP_CODES.ping));
  }

  private fail(reason: string): void {
    this.closed ??= new Error(reason);
    clearInterval(this.pinger);
    for (const [xid, waiting] of this.pending) {
      clearTimeout(waiting.timer);
      waiting.reject(this.connectionError(waiting.operation, reason));
      this.pending.delete(xid);
    }
    if (!this.socket.destroyed) this.socket.destroySoon();
  }

  private connectionError(operation: string, message: string): ZooKeeperConnectionError {
    return new ZooKeeperConnectionError(message, { operation, connectString: this.address });
  }
}

async function firstPacket(socket: Socket, splitter: FrameSplitter, signal: AbortSignal): Promise<Buffer> {
  for (;;) {
    const [chunk] = (await once(socket, 'data', { signal })) as [Buffer];
    const [packet] = splitter.push(chunk);
    if (packet !== undefined) return packet;
  }
}
