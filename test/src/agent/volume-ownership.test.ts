import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { applyFsGroup } from './volume-ownership.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

describe('applyFsGroup', () => {
  it('gives every file and directory the group, group read-write, and directories setgid', async () => {
    const volume = await mkdtemp(join(tmpdir(), 'zk-oam-fsgroup-'));
    dirs.push(volume);
    await mkdir(join(volume, 'data'), { mode: 0o755 });
    await writeFile(join(volume, 'data', 'myid'), '1\n', { mode: 0o644 });

    await applyFsGroup(volume, 1234, 'readWrite');

    expect(await modeAndGroup(join(volume, 'data'))).toEqual({ gid: 1234, mode: 0o2775 });
    expect(await modeAndGroup(join(volume, 'data', 'myid'))).toEqual({ gid: 1234, mode: 0o664 });
    expect((await modeAndGroup(volume)).gid).toBe(1234);
  });

  it('lets the group read a read-only volume (a Secret at defaultMode 0400), never write it', async () => {
    const volume = await mkdtemp(join(tmpdir(), 'zk-oam-fsgroup-'));
    dirs.push(volume);
    await writeFile(join(volume, 'tls.key'), 'key', { mode: 0o400 });

    await applyFsGroup(volume, 1234, 'readOnly');

    expect(await modeAndGroup(join(volume, 'tls.key'))).toEqual({ gid: 1234, mode: 0o440 });
    expect((await modeAndGroup(volume)).mode & 0o2070).toBe(0o2050);
  });

  it('leaves a writable volume whose root already has the group alone', async () => {
    const volume = await mkdtemp(join(tmpdir(), 'zk-oam-fsgroup-'));
    dirs.push(volume);
    await applyFsGroup(volume, 1234, 'readWrite');
    await writeFile(join(volume, 'later'), 'x', { mode: 0o600 });

    await applyFsGroup(volume, 1234, 'readWrite');

    expect(await modeAndGroup(join(volume, 'later'))).toMatchObject({ mode: 0o600 });
  });
});

async function modeAndGroup(path: string): Promise<{ gid: number; mode: number }> {
  const { gid, mode } = await stat(path);
  return { gid, mode: mode & 0o7777 };
}
