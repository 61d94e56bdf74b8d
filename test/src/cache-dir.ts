// Where everything built or downloaded for the bed and the tests is cached, outside any clone (scripts/cache-dir.sh
// finds it the same way). Imports nothing of ours: vitest.config.ts loads it before any TypeScript path resolution.
import { homedir } from 'node:os';
import { join } from 'node:path';

/** $ZKOAM_CACHE_DIR, else $XDG_CACHE_HOME/zk-oam, else ~/.cache/zk-oam; callers pass process.env. */
export function bedCacheDir(env: Readonly<Partial<Record<string, string>>>): string {
  return env['ZKOAM_CACHE_DIR'] || join(env['XDG_CACHE_HOME'] || join(homedir(), '.cache'), 'zk-oam');
}
