// A door joins a loopback port to a target through a unix socket, both ways, and closes when its target cannot be found.
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDoor, portOf, serveDoor } from './door.js';

const servers: Server[] = [];
const dir = mkdtempSync(join(tmpdir(), 'zkoam-door-'));

afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

function listen(server: Server): Promise<Server> {
  servers.push(server);
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

function exchange(port: number, message: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString()));
    socket.once('error', reject);
    socket.once('close', () => resolve(received));
    socket.end(message);
  });
}

describe('a door', () => {
  it('carries a connection to its target and the answer back', async () => {
    const upper = await listen(createServer((socket) => socket.on('data', (chunk) => socket.end(chunk.toString().toUpperCase()))));
    const socketPath = join(dir, 'upper.sock');
    servers.push(await serveDoor(socketPath, () => Promise.resolve({ host: '127.0.0.1', port: portOf(upper) })));
    const outside = await openDoor(socketPath, 0);
    servers.push(outside);
    expect(await exchange(portOf(outside), 'ruok')).toBe('RUOK');
  });

  it('closes a connection whose target cannot be found, and serves the next', async () => {
    let found = false;
    const echo = await listen(createServer((socket) => socket.pipe(socket)));
    const socketPath = join(dir, 'later.sock');
    servers.push(await serveDoor(socketPath, () => (found ? Promise.resolve({ host: '127.0.0.1', port: portOf(echo) }) : Promise.reject(new Error('no Service yet')))));
    const outside = await openDoor(socketPath, 0);
    servers.push(outside);
    expect(await exchange(portOf(outside), 'hello')).toBe('');
    found = true;
    expect(await exchange(portOf(outside), 'hello')).toBe('hello');
  });
});

process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
