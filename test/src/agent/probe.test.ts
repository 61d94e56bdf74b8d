// Probe handlers: tcpSocket on named ports, exec judged by its exit code in the container, exec timeouts.
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runProbe, type ProbeContext } from './probe.js';

let server: Server;
let port = 0;

beforeAll(async () => {
  server = createServer((socket) => socket.end());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  port = typeof address === 'object' && address !== null ? address.port : 0;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const context = (): ProbeContext => ({
  podIP: '127.0.0.1',
  ports: [{ name: 'client', containerPort: port }],
  // The container's exec, faked: exits with the number its command names; `sleep` outlives any timeout.
  exec: ([command = '', code = '0']) => Promise.resolve({ exitCode: command === 'sleep' ? null : Number(code), output: `ran ${command}` }),
});

describe('runProbe', () => {
  it('passes a tcpSocket probe on a named port that accepts connections, and fails one that does not', async () => {
    expect((await runProbe({ tcpSocket: { port: 'client' } }, context())).ok).toBe(true);
    expect((await runProbe({ tcpSocket: { port: 1 } }, context())).ok).toBe(false);
  });

  it('judges an exec probe by the exit code of its command in the container', async () => {
    expect(await runProbe({ exec: { command: ['exit', '0'] } }, context())).toEqual({ ok: true, detail: 'exit 0: ran exit' });
    expect((await runProbe({ exec: { command: ['exit', '1'] } }, context())).ok).toBe(false);
  });

  it('fails an exec probe that outlives its timeout', async () => {
    expect(await runProbe({ exec: { command: ['sleep'] }, timeoutSeconds: 1 }, context())).toEqual({ ok: false, detail: 'killed after 1000 ms' });
  });
});
