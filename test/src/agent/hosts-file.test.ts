// The JVM hosts file: every DNS form of each pod name, replaced atomically.
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderHostsFile, writeFileAtomically } from './hosts-file.js';

describe('the hosts file', () => {
  it('lists localhost and every DNS name of each pod with hostname and subdomain', () => {
    const content = renderHostsFile([
      { namespace: 'b', hostname: 'zk-1', subdomain: 'zk-hs', ip: '127.64.0.2' },
      { namespace: 'a', hostname: 'zk-0', subdomain: 'zk-hs', ip: '127.64.0.1' },
    ]);
    expect(content).toBe(
      [
        '127.0.0.1 localhost',
        '::1 localhost',
        '127.64.0.1 zk-0.zk-hs.a.svc.cluster.local zk-0.zk-hs.a.svc zk-0.zk-hs.a zk-0.zk-hs',
        '127.64.0.2 zk-1.zk-hs.b.svc.cluster.local zk-1.zk-hs.b.svc zk-1.zk-hs.b zk-1.zk-hs',
        '',
      ].join('\n'),
    );
  });

  it('is replaced in one rename, leaving no temporary file behind', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hosts-'));
    try {
      await writeFileAtomically(join(dir, 'hosts'), 'one\n');
      await writeFileAtomically(join(dir, 'hosts'), 'two\n');
      expect(await readFile(join(dir, 'hosts'), 'utf8')).toBe('two\n');
      expect(await readdir(dir)).toEqual(['hosts']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
