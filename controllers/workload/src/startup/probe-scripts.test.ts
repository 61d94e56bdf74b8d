// ready.sh and alive.sh run for real in bash, against a fake member: a TCP server that answers four-letter words as
// ZooKeeper 3.8 does. PATH is empty, so a script that started any program (sed, cat, timeout) would fail here: the
// probes run in every member every few seconds, and each program started is one more exec in the container.
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FOUR_LETTER_WORD_ENV } from './four-letter-word-env.js';
import { ALIVE_SCRIPT, READY_SCRIPT } from './probe-scripts.js';

const srvr = (mode: string): string =>
  ['Zookeeper version: 3.8.4', 'Latency min/avg/max: 0/0.0/0', 'Received: 3', 'Sent: 2', 'Connections: 1', 'Outstanding: 0', `Mode: ${mode}`, 'Node count: 5', ''].join(
    '\n',
  );
const NOT_SERVING = 'This ZooKeeper instance is not currently serving requests\n';

const servers: Server[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

/** A fake member on a free loopback port: `answer` gets each word asked and replies, or holds the connection open on undefined. */
async function fakeMember(answer: (word: string) => string | undefined): Promise<number> {
  const open: Socket[] = [];
  const server = createServer((socket) => {
    open.push(socket);
    socket.once('data', (word) => {
      const reply = answer(word.toString());
      if (reply !== undefined) socket.end(reply);
    });
  });
  server.on('close', () => open.forEach((socket) => socket.destroy()));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the fake member has no port');
  return address.port;
}

/** A port nothing listens on: a server's, closed again. */
async function closedPort(): Promise<number> {
  const port = await fakeMember(() => '');
  const server = servers.pop();
  await new Promise((resolve) => server?.close(resolve));
  return port;
}

/** Runs the script as the kubelet's exec does (`bash <file>`), stdin closed, killed after 10 s. */
async function probe(script: string, port: number): Promise<{ code: number | null; output: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'zk-probe-'));
  dirs.push(dir);
  const file = join(dir, 'probe.sh');
  await writeFile(file, script);
  const env = { PATH: '/nonexistent', POD_IP: '127.0.0.1', [FOUR_LETTER_WORD_ENV.port]: String(port) };
  const child = spawn('/bin/bash', [file], { env, stdio: ['ignore', 'pipe', 'pipe'], timeout: 10_000 });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  return { code, output };
}

describe('ready.sh', () => {
  it.each(['leader', 'follower', 'observer'])('is ready when srvr answers Mode: %s, starting no program', async (mode) => {
    let asked = '';
    const port = await fakeMember((word) => {
      asked = word;
      return srvr(mode);
    });
    expect(await probe(READY_SCRIPT, port)).toEqual({ code: 0, output: '' });
    expect(asked).toBe('srvr');
  });

  it('is not ready as a standalone server, naming the mode', async () => {
    const port = await fakeMember(() => srvr('standalone'));
    expect(await probe(READY_SCRIPT, port)).toEqual({ code: 1, output: "not ready: mode 'standalone'\n" });
  });

  it('is not ready while the server is not serving (out of the quorum)', async () => {
    const port = await fakeMember(() => NOT_SERVING);
    expect(await probe(READY_SCRIPT, port)).toEqual({ code: 1, output: "not ready: mode 'unknown'\n" });
  });

  it('is not ready when nothing listens on the port', async () => {
    const result = await probe(READY_SCRIPT, await closedPort());
    expect(result.code).toBe(1);
    expect(result.output).toContain("not ready: mode 'unknown'");
  });

  it('gives up on a server that accepts and never answers, before the 10 s that probe() would kill it at', async () => {
    const port = await fakeMember(() => undefined);
    expect(await probe(READY_SCRIPT, port)).toEqual({ code: 1, output: "not ready: mode 'unknown'\n" });
  });
});

describe('alive.sh', () => {
  it('is alive when ruok answers imok, starting no program', async () => {
    let asked = '';
    const port = await fakeMember((word) => {
      asked = word;
      return 'imok';
    });
    expect(await probe(ALIVE_SCRIPT, port)).toEqual({ code: 0, output: '' });
    expect(asked).toBe('ruok');
  });

  it('is not alive when ruok is refused or nothing listens', async () => {
    const port = await fakeMember(() => 'ruok is not executed because it is not in the whitelist.');
    expect((await probe(ALIVE_SCRIPT, port)).code).toBe(1);
    expect((await probe(ALIVE_SCRIPT, await closedPort())).code).toBe(1);
  });
});
