// A door between the machine's network and a bed's (which is a namespace of its own, scripts/bed-network.sh): inside,
// a unix socket whose every connection is joined to a target in the bed's network; outside, a TCP port on loopback
// whose every connection is joined to that socket. A unix socket is a file, reachable from both namespaces. This is
// how `npm start`'s user reaches the apiserver and the console with the tools they have.
import { rmSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';

export interface DoorTarget {
  readonly host: string;
  readonly port: number;
}

/**
 * Joins two sockets both ways. An end travels across (each side half-open, so that an answer can still come back after
 * a client has finished sending); a failure of either closes both.
 */
function join(a: Socket, b: Socket): void {
  a.pipe(b);
  b.pipe(a);
  const close = (): void => {
    a.destroy();
    b.destroy();
  };
  a.once('error', close);
  b.once('error', close);
}

function listening(server: Server, listen: (server: Server) => void): Promise<Server> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.once('listening', () => {
      server.off('error', reject);
      resolve(server);
    });
    listen(server);
  });
}

/**
 * Inside the bed's network: serves `socketPath`, joining each connection to where `target` says at that moment (a
 * Service's address, say, which is only known once it exists). A target that cannot be found closes the connection.
 */
export function serveDoor(socketPath: string, target: () => Promise<DoorTarget>): Promise<Server> {
  rmSync(socketPath, { force: true });
  const server = createServer({ allowHalfOpen: true }, (client) => {
    client.pause();
    target().then(
      ({ host, port }) => {
        const upstream = connect({ host, port, allowHalfOpen: true });
        join(client, upstream);
        client.resume();
      },
      () => client.destroy(),
    );
  });
  return listening(server, (s) => s.listen(socketPath));
}

/** Outside: listens on 127.0.0.1:`port` (0 for any free one) and passes each connection through the door at `socketPath`. */
export function openDoor(socketPath: string, port: number): Promise<Server> {
  const server = createServer({ allowHalfOpen: true }, (client) => join(client, connect({ path: socketPath, allowHalfOpen: true })));
  return listening(server, (s) => s.listen(port, '127.0.0.1'));
}

/** The port a listening server took. */
export function portOf(server: Server): number {
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the door is not listening on a TCP port');
  return address.port;
}
