// The class-data sharing archive the bed makes for its ZooKeeper image's pods: trained in a container of the image
// (the host's archive is refused by the image's JVM, another build), and mapped by a JVM in a pod's container, run as
// the pod's user with the archive mounted as the agent mounts it.
import { closeSync, openSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { withJvmArchive } from '../src/agent/jvm-archive.js';
import { repoRoot } from '../src/bed/paths.js';
import { startContainer } from '../src/containers/container-run.js';
import { ImageBundles } from '../src/containers/image-bundles.js';
import { Runc } from '../src/containers/runc.js';
import { ImageStore } from '../src/images/image-store.js';
import { buildZookeeperImages } from '../src/images/zookeeper-images.js';
import { DEBIAN_ZOOKEEPER_CLASSPATH } from '../src/zookeeper-jvm/classpath.js';
import { imageCdsArchive } from '../src/zookeeper-jvm/image-cds-archive.js';
import { bedCacheDir } from '../src/cache-dir.js';

const store = new ImageStore(bedCacheDir(process.env));
const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

describe('the archive made in the bed’s ZooKeeper image', () => {
  it('is made once, in a container of the image, and a pod’s JVM of the image maps it (-Xshare:on)', async () => {
    const built = (await buildZookeeperImages({ repo: repoRoot(), store, progress: () => undefined })).find((image) => image.name === 'zookeeper-debian');
    if (built === undefined) throw new Error('zookeeper-debian was not built');
    const image = await new ImageBundles(store).get(built.layout, built.name);
    const cacheDir = await mkdtemp(join(tmpdir(), 'zk-oam-cds-'));
    dirs.push(cacheDir);
    const started = Date.now();
    const archive = await imageCdsArchive({ cacheDir, image, log: pino({ level: 'warn' }) });
    console.log(`[cds] archive made in the image in ${String(Date.now() - started)} ms`);
    expect(archive).toMatch(/jvm-cds\/zookeeper-image-[0-9a-f]{16}\.jsa$/);
    expect(await imageCdsArchive({ cacheDir, image, log: pino({ level: 'silent' }) })).toBe(archive);

    const runs = await mkdtemp(join(tmpdir(), 'zk-oam-cds-pod-'));
    dirs.push(runs);
    const run = withJvmArchive({ args: ['bash', '-c', `java $JDK_JAVA_OPTIONS -Xshare:on -cp ${DEBIAN_ZOOKEEPER_CLASSPATH} org.apache.zookeeper.version.VersionInfoMain`], user: { uid: 1000, gid: 1000 } }, archive ?? '');
    const output = openSync(join(runs, 'output'), 'a');
    const container = await startContainer(new Runc(join(runs, 'state')), { id: 'maps', dir: join(runs, 'maps'), image, run, stdout: output, stderr: output }).finally(() => closeSync(output));
    const exit = await container.exited;
    expect({ exit, output: await readFile(join(runs, 'output'), 'utf8') }).toMatchObject({ exit: { exitCode: 0 }, output: expect.stringContaining('Apache ZooKeeper') });
  }, 180_000);
});
