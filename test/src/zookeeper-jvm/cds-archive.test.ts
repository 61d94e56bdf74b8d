import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { zookeeperCdsArchive } from './cds-archive.js';
import { DEBIAN_ZOOKEEPER_CLASSPATH } from './classpath.js';
import { shortLivedJvmOptions } from './flags.js';

const log = pino({ level: 'silent' });

describe('zookeeperCdsArchive', () => {
  const cacheDirs: string[] = [];
  const newCacheDir = async (): Promise<string> => {
    const dir = await mkdtemp(join(tmpdir(), 'zk-oam-cds-'));
    cacheDirs.push(dir);
    return dir;
  };
  afterAll(async () => {
    await Promise.all(cacheDirs.map((dir) => rm(dir, { recursive: true, force: true })));
  });

  it('makes an archive a ZooKeeper JVM maps (-Xshare:on fails otherwise), once, and leaves no training files', async () => {
    const cacheDir = await newCacheDir();
    const path = process.env['PATH'] ?? '';
    const archive = await zookeeperCdsArchive({ cacheDir, path, log });
    expect(archive).toMatch(/jvm-cds\/zookeeper-java[0-9.]+-[0-9a-f]{16}\.jsa$/);
    const args = [...shortLivedJvmOptions(archive), '-Xshare:on', '-cp', DEBIAN_ZOOKEEPER_CLASSPATH, 'org.apache.zookeeper.version.VersionInfoMain'];
    await expect(promisify(execFile)('java', args)).resolves.toMatchObject({ stdout: expect.stringContaining('Apache ZooKeeper') });
    const made = await stat(archive ?? '');
    expect(await zookeeperCdsArchive({ cacheDir, path, log })).toBe(archive);
    expect((await stat(archive ?? '')).mtimeMs).toBe(made.mtimeMs);
    expect(await readdir(dirname(archive ?? ''))).toEqual([archive?.split('/').at(-1)]);
  }, 120_000);

  it('gives no archive, rather than an error, when there is no java to make one with', async () => {
    expect(await zookeeperCdsArchive({ cacheDir: await newCacheDir(), path: '/nonexistent', log })).toBeUndefined();
  });
});
