// The writer's client across a connection that closes in the middle of a reply. A fake ZooKeeper server, because no real
// one can be made to stop after the first bytes of a reply, or to garble one, on cue: it speaks just enough of the
// protocol (the session handshake, pings, getChildren2), and spoils the first getChildren2 reply of its first connection.
import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ZnodeClient } from './znode-client.js';

const OP_GET_CHILDREN2 = 12;
const STAT_BYTES = 68;

function frame(body: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeInt32BE(body.length);
  return Buffer.concat([length, body]);
}

function connectResponse(): Buffer {
  const body = Buffer.alloc(4 + 4 + 8 + 4 + 16);
  body.writeInt32BE(0, 0);
  body.writeInt32BE(6_000, 4);
  body.writeBigInt64BE(0x1234n, 8);
  body.writeInt32BE(16, 16);
  return frame(body);
}

function reply(xid: number, payload: Buffer, err = 0): Buffer {
  const header = Buffer.alloc(16);
  header.writeInt32BE(xid, 0);
  header.writeBigInt64BE(7n, 4);
  header.writeInt32BE(err, 12);
  return frame(Buffer.concat([header, payload]));
}

function children(names: readonly string[]): Buffer {
  const count = Buffer.alloc(4);
  count.writeInt32BE(names.length);
  const strings = names.map((name) => {
    const length = Buffer.alloc(4);
    length.writeInt32BE(Buffer.byteLength(name));
    return Buffer.concat([length, Buffer.from(name)]);
  });
  return Buffer.concat([count, ...strings, Buffer.alloc(STAT_BYTES)]);
}

/** Each frame the client sends on one connection: the handshake first, then requests (xid, type). */
function onFrames(socket: Socket, each: (body: Buffer, index: number) => void): void {
  let pending = Buffer.alloc(0);
  let index = 0;
  socket.on('data', (data: Buffer) => {
    pending = Buffer.concat([pending, data]);
    while (pending.length >= 4 && pending.length >= 4 + pending.readInt32BE(0)) {
      const body = pending.subarray(4, 4 + pending.readInt32BE(0));
      pending = pending.subarray(4 + body.length);
      each(body, index++);
    }
  });
}

class FakeZooKeeperServer {
  connections = 0;
  /** The getChildren2 requests received, on any connection. */
  childrenAsked = 0;
  private readonly server: Server;
  private readonly sockets = new Set<Socket>();

  /** `partial`: the first 7 bytes of the reply, then the connection closes; `garbled`: an error code ZooKeeper has not. */
  constructor(names: readonly string[], spoiled: 'partial' | 'garbled') {
    this.server = createServer((socket) => {
      const connection = ++this.connections;
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
      onFrames(socket, (body, index) => {
        if (index === 0) {
          socket.write(connectResponse());
          return;
        }
        const xid = body.readInt32BE(0);
        const type = body.readInt32BE(4);
        const answer = reply(xid, type === OP_GET_CHILDREN2 ? children(names) : Buffer.alloc(0));
        if (type === OP_GET_CHILDREN2) this.childrenAsked += 1;
        if (connection === 1 && type === OP_GET_CHILDREN2) {
          if (spoiled === 'partial') socket.end(answer.subarray(0, 7));
          else socket.write(reply(xid, Buffer.alloc(0), 0x72ad0000));
          return;
        }
        socket.write(answer);
      });
    });
  }

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    const address = this.server.address();
    if (address === null || typeof address === 'string') throw new Error('no TCP address');
    return `127.0.0.1:${String(address.port)}`;
  }

  close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

describe('ZnodeClient', () => {
  let server: FakeZooKeeperServer | undefined;
  let client: ZnodeClient | undefined;
  afterEach(async () => {
    client?.close();
    await server?.close();
  });

  // node-zookeeper-client sends a call again after a connection loss (its `retries`): the answer comes on the next
  // connection, read from its first byte rather than after what the closed one left.
  it('answers a call whose connection closed in the middle of its reply on the next connection', async () => {
    server = new FakeZooKeeperServer(['app', 'zookeeper'], 'partial');
    client = await ZnodeClient.connect(await server.listen());

    expect(await client.children('/')).toEqual(['app', 'zookeeper']);
    expect(server.connections).toBe(2);
    expect(server.childrenAsked).toBe(2);
    expect(await client.children('/')).toEqual(['app', 'zookeeper']);
  });

  // Unguarded, the library throws "Unknown code: 1923940352" from the socket's data handler: an uncaught exception.
  it('drops a connection whose reply it cannot read: that call fails at its deadline, the next is answered on a new connection', async () => {
    server = new FakeZooKeeperServer(['app'], 'garbled');
    client = await ZnodeClient.connect(await server.listen(), 10_000, 500);

    await expect(client.children('/')).rejects.toThrow('getChildren: no answer within 500 ms');
    expect(await client.children('/')).toEqual(['app']);
    expect(server.connections).toBe(2);
    expect(server.childrenAsked).toBe(2);
  });
});
