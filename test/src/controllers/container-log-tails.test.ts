import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { waitFor } from '../wait-for.js';
import { containerLogTails, withContainerLogs } from './container-log-tails.js';

let dir = '';
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'log-tails-'));
  await mkdir(join(dir, 'agent', 'pods', 'ns_zk-0'), { recursive: true });
  const chatter = '[NIOWorkerThread-1] INFO org.apache.zookeeper.server.NIOServerCnxn - Processing srvr command from /172.31.1.1:40414';
  const lines = Array.from({ length: 30 }, (_unused, index) => [`line ${String(index + 1)}`, chatter]).flat();
  await writeFile(join(dir, 'agent', 'pods', 'ns_zk-0', 'container.log'), `${lines.join('\n')}\n`);
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("a bed's container log tails", () => {
  it("give each pod's last lines under its name, without ZooKeeper's four-letter-word chatter, and say when a pod has no log", async () => {
    const tails = (await containerLogTails({ dir }, 'ns', ['zk-0', 'zk-1'], 3)).split('\n');
    expect(tails.slice(0, 4)).toEqual(['--- ns/zk-0, last 3 lines of its container log', 'line 28', 'line 29', 'line 30']);
    expect(tails[4]).toMatch(/^--- ns\/zk-1: no container log \(ENOENT/);
    expect(tails).toHaveLength(5);
  });

  it("follow a wait's timeout with them, and let other errors pass as they are", async () => {
    const timeout = withContainerLogs(waitFor('zk to serve', () => Promise.resolve('looking'), () => false, 1, 1), { dir }, 'ns', ['zk-0']);
    await expect(timeout).rejects.toThrow(/timed out after 1 ms waiting for zk to serve; last: "looking"\n--- ns\/zk-0, last 20 lines[^]*line 30$/);
    const refused = new Error('refused');
    await expect(withContainerLogs(Promise.reject(refused), { dir }, 'ns', ['zk-0'])).rejects.toBe(refused);
  });
});
