// The options a short-lived ZooKeeper JVM of the bed starts with: the flags, and the class-data sharing archive from
// the bed's cache directory when there is (or can be made) one.
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { zookeeperCdsArchive } from './cds-archive.js';
import { shortLivedJvmOptions } from './flags.js';

/** The environment the cache directory and `java` are found through; callers pass process.env. */
export type JvmEnvironment = Readonly<Partial<Record<string, string>>>;

/** The bed's cache directory, as the build scripts find it: $ZKOAM_CACHE_DIR, else $XDG_CACHE_HOME/zk-oam, else ~/.cache/zk-oam. */
export function bedCacheDir(env: JvmEnvironment): string {
  return env['ZKOAM_CACHE_DIR'] || join(env['XDG_CACHE_HOME'] || join(homedir(), '.cache'), 'zk-oam');
}

/** The options for a short-lived ZooKeeper JVM; the first call on a machine makes the archive (a few seconds). */
export async function zookeeperJvmOptions(options: { env: JvmEnvironment; log: Logger }): Promise<string[]> {
  const archive = await zookeeperCdsArchive({ cacheDir: bedCacheDir(options.env), path: options.env['PATH'] ?? '', log: options.log });
  return shortLivedJvmOptions(archive);
}
