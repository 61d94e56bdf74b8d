// The bed's tuning of the JVMs in containers of an image it made a class-data sharing archive for (the bed's ZooKeeper
// image): the archive's directory mounted read-only, and the bed's options for short-lived JVMs first in
// JDK_JAVA_OPTIONS, so that the pod's own value, after them, still wins. A bed tuning, as a mutating webhook could add;
// an image's own JDK_JAVA_OPTIONS would be replaced, as by any container env (the bed's images set none).
import { basename, dirname } from 'node:path';
import type { RunOptions } from '../containers/runtime-spec.js';
import { shortLivedJvmOptions } from '../zookeeper-jvm/flags.js';

/** Outside /root, where the cache is and the image's users cannot go. */
const ARCHIVE_DIR = '/zk-oam-jvm-cds';

export function withJvmArchive(run: RunOptions, archive: string): RunOptions {
  const options = [...shortLivedJvmOptions(`${ARCHIVE_DIR}/${basename(archive)}`), run.env?.['JDK_JAVA_OPTIONS'] ?? ''].join(' ').trim();
  return {
    ...run,
    env: { ...run.env, JDK_JAVA_OPTIONS: options },
    mounts: [...(run.mounts ?? []), { source: dirname(archive), destination: ARCHIVE_DIR, readOnly: true }],
  };
}
