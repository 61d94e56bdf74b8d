// The hosts file every container has bind-mounted as /etc/hosts: rewritten in place, so a running container sees it.
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { HostsRegistry } from './hosts-registry.js';

describe('HostsRegistry', () => {
  it('rewrites the hosts file in place as pods come, keeping the file a bind mount of it keeps', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hosts-'));
    try {
      const path = join(dir, 'hosts');
      const hosts = new HostsRegistry(path, pino({ level: 'silent' }));
      const member = (name: string): Parameters<HostsRegistry['set']>[0] => ({ metadata: { name, namespace: 'ns', uid: name }, spec: { containers: [], hostname: name, subdomain: 'zk-hs' } });
      await hosts.set(member('zk-0'), '127.64.0.1');
      const before = await stat(path);

      await hosts.set(member('zk-1'), '127.64.0.2');

      expect((await stat(path)).ino).toBe(before.ino);
      expect(await readFile(path, 'utf8')).toContain('127.64.0.2 zk-1.zk-hs.ns.svc.cluster.local');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
