// The options a short-lived ZooKeeper JVM of the bed starts with: the flags, and the class-data sharing archive from
// the bed's cache directory when there is (or can be made) one.
import type { Logger } from 'pino';
import { zookeeperCdsArchive } from './cds-archive.js';
import { shortLivedJvmOptions } from './flags.js';
import { bedCacheDir } from '../cache-dir.js';

/** The environment the cache directory and `java` are found through; callers pass process.env. */
export type JvmEnvironment = Readonly<Partial<Record<string, string>>>;

/** The options for a short-lived ZooKeeper JVM; the first call on a machine makes the archive (a few seconds). */
export async function zookeeperJvmOptions(options: { env: JvmEnvironment; log: Logger }): Promise<string[]> {
  const archive = await zookeeperCdsArchive({ cacheDir: bedCacheDir(options.env), path: options.env['PATH'] ?? '', log: options.log });
  return shortLivedJvmOptions(archive);
}
