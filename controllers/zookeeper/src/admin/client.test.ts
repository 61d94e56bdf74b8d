// The admin client's failure path without a server: a connect deadline, a typed error, and no handle left behind.
import { execFile } from 'node:child_process';
import { createServer } from 'node:net';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ZooKeeperAdmin } from './client.js';
import { ZooKeeperConnectionError } from './errors.js';

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') {
    throw new Error('no TCP address');
  }
  return address.port;
}

describe('ZooKeeperAdmin.connect', () => {
  it('fails with a connection error when no server answers in time', async () => {
    const connectString = `127.0.0.1:${await closedPort()}`;
    const attempt = ZooKeeperAdmin.connect({ connectString, connectTimeoutMs: 1_000 });
    await expect(attempt).rejects.toBeInstanceOf(ZooKeeperConnectionError);
    await expect(attempt).rejects.toThrow(`connect via ${connectString}: no session within 1000 ms`);
  });

  it('releases the native handle after a failed connect, so the process can exit', async () => {
    const script = [
      "import { ZooKeeperAdmin } from './client.ts';",
      `await ZooKeeperAdmin.connect({ connectString: '127.0.0.1:${await closedPort()}', connectTimeoutMs: 500 }).catch(() => undefined);`,
    ].join('\n');
    const run = promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '--eval', script], {
      cwd: import.meta.dirname,
      timeout: 20_000,
    });
    await expect(run).resolves.toBeDefined();
  });
});
