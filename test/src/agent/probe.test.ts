// Probe handlers: tcpSocket on named ports, exec with the container env, exec timeouts.
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
  execLaunch: ([command = '', ...args]) => ({ command, args, env: { PATH: '/usr/bin:/bin', GREETING: 'hi' }, cwd: '/' }),
});

describe('runProbe', () => {
  it('passes a tcpSocket probe on a named port that accepts connections, and fails one that does not', async () => {
    expect((await runProbe({ tcpSocket: { port: 'client' } }, context())).ok).toBe(true);
    expect((await runProbe({ tcpSocket: { port: 1 } }, context())).ok).toBe(false);
  });

  it('judges an exec probe by its exit code, with the container env', async () => {
    expect((await runProbe({ exec: { command: ['/bin/bash', '-c', '[ "$GREETING" = hi ]'] } }, context())).ok).toBe(true);
    expect((await runProbe({ exec: { command: ['/bin/bash', '-c', 'exit 1'] } }, context())).ok).toBe(false);
  });

  it('fails an exec probe that outlives its timeout', async () => {
    const outcome = await runProbe({ exec: { command: ['/bin/sleep', '5'] }, timeoutSeconds: 1 }, context());
    expect(outcome.ok).toBe(false);
  });
});
