import { homedir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bedCacheDir } from '../cache-dir.js';

describe('bedCacheDir', () => {
  it('is where the build scripts cache: $ZKOAM_CACHE_DIR, else $XDG_CACHE_HOME/zk-oam, else ~/.cache/zk-oam', () => {
    expect(bedCacheDir({ ZKOAM_CACHE_DIR: '/c/zk', XDG_CACHE_HOME: '/xdg' })).toBe('/c/zk');
    expect(bedCacheDir({ XDG_CACHE_HOME: '/xdg' })).toBe('/xdg/zk-oam');
    expect(bedCacheDir({})).toBe(join(homedir(), '.cache', 'zk-oam'));
  });

  it('treats an empty variable as unset, as the scripts\' ${VAR:-default} does', () => {
    expect(bedCacheDir({ ZKOAM_CACHE_DIR: '', XDG_CACHE_HOME: '' })).toBe(join(homedir(), '.cache', 'zk-oam'));
  });
});
