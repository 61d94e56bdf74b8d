// The class-data sharing archive for the ZooKeeper JVMs of an image's containers: the host's archive is refused by an
// image whose JVM is another build, so the same training run (cds-archive.ts) runs in a container of the image, as
// root, with the training directory mounted at its own path. Cached by the image's manifest digest, which covers its
// Java and jars. Any failure costs only speed: the pods' JVMs then start without an archive.
import { closeSync, existsSync, openSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Logger } from 'pino';
import { startContainer, stopContainer } from '../containers/container-run.js';
import type { ImageBundle } from '../containers/image-bundles.js';
import { Runc } from '../containers/runc.js';
import { DEBIAN_ZOOKEEPER_CLASSPATH, ZOOKEEPER_SERVER_MAIN } from './classpath.js';
import { trainArchive, type TrainingJvm } from './cds-archive.js';

/** The image's java, in one container per run under a runc root of its own, the training directory mounted. */
function imageJvm(image: ImageBundle, runc: Runc, runs: string, trainingDir: () => string): TrainingJvm {
  let count = 0;
  const start = async (args: readonly string[], logFile: string): Promise<Awaited<ReturnType<typeof startContainer>>> => {
    const id = `training-${String(count++)}`;
    const output = openSync(logFile, 'a');
    try {
      const mounts = [{ source: trainingDir(), destination: trainingDir(), readOnly: false }];
      return await startContainer(runc, { id, dir: join(runs, id), image, run: { args: ['java', ...args], user: { uid: 0, gid: 0 }, mounts }, stdout: output, stderr: output });
    } finally {
      closeSync(output);
    }
  };
  return {
    startServer: async (options, configFile, logFile) => {
      const container = await start([...options, '-cp', DEBIAN_ZOOKEEPER_CLASSPATH, ZOOKEEPER_SERVER_MAIN, configFile], logFile);
      let ended = false;
      void container.exited.then(() => (ended = true));
      return { alive: () => !ended, stop: async (graceMs) => void (await stopContainer(container, graceMs)) };
    },
    starts: async (options) => {
      const container = await start([...options, '-cp', DEBIAN_ZOOKEEPER_CLASSPATH, 'org.apache.zookeeper.version.VersionInfoMain'], join(trainingDir(), 'check.log'));
      return (await container.exited).exitCode === 0;
    },
  };
}

/** The archive for ZooKeeper JVMs in containers of `image`, made now if there is none; undefined if it cannot be. */
export async function imageCdsArchive(options: { cacheDir: string; image: ImageBundle; log: Logger }): Promise<string | undefined> {
  const archive = join(options.cacheDir, 'jvm-cds', `zookeeper-image-${options.image.config.digest.slice('sha256:'.length, 'sha256:'.length + 16)}.jsa`);
  if (existsSync(archive)) return archive;
  const runs = await mkdtemp(join(tmpdir(), 'zk-oam-cds-runc-'));
  try {
    const started = Date.now();
    // trainArchive makes its training directory beside the archive: the one directory the containers need.
    await trainArchive(archive, imageJvm(options.image, new Runc(join(runs, 'state')), runs, () => dirname(archive)));
    options.log.info({ archive, ms: Date.now() - started }, 'made the class-data sharing archive for the image’s ZooKeeper JVMs');
    return archive;
  } catch (error) {
    options.log.warn({ err: error }, 'no class-data sharing archive for the image’s ZooKeeper JVMs: they start without one');
    return undefined;
  } finally {
    await rm(runs, { recursive: true, force: true });
  }
}
