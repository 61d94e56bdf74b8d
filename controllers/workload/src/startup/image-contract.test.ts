// start.sh's image contract run for real in bash, against directory trees shaped like the images it must start
// ZooKeeper from (the official image, Debian's zookeeper package, a release under ZOOKEEPER_HOME) and like broken ones.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ZOOKEEPER_IMAGE_LAYOUTS, type ZookeeperImageLayouts } from '@zk-oam/apis';
import { imageContractScript } from './image-contract.js';
import { START_SCRIPT } from './start-script.js';

/** bash by its absolute path: the images' PATH is the tree's alone, so that the machine's own java is never found. */
const bash = (process.env['PATH'] ?? '').split(delimiter).map((dir) => join(dir, 'bash')).find((path) => existsSync(path));

/** The well-known layouts moved under `root`, which stands for the image's root filesystem. */
function layoutsUnder(root: string): ZookeeperImageLayouts {
  const [jar, ...rest] = ZOOKEEPER_IMAGE_LAYOUTS.debianClasspath;
  return {
    releaseHomes: join(root, ZOOKEEPER_IMAGE_LAYOUTS.releaseHomes),
    releaseConfDir: join(root, ZOOKEEPER_IMAGE_LAYOUTS.releaseConfDir),
    debianClasspath: [join(root, jar), ...rest.map((path) => join(root, path))],
  };
}

interface Found {
  exitCode: number;
  java: string;
  classpath: string;
  foundBy: string;
  stderr: string;
}

const roots: string[] = [];
afterEach(async () => {
  for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true });
});

/**
 * An image's root filesystem: each path ending in `/` is a directory, `java` and `zkServer.sh` are executables, every
 * other path an empty file; the member's volume is mounted at `data/`.
 */
async function image(paths: readonly string[]): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'zk-image-'));
  roots.push(root);
  for (const path of [...paths, 'data/']) {
    const full = join(root, path);
    if (path.endsWith('/')) {
      await mkdir(full, { recursive: true });
      continue;
    }
    await mkdir(dirname(full), { recursive: true });
    await writeFile(full, '');
    if (/(^|\/)(java|zkServer\.sh)$/.test(path)) await chmod(full, 0o755);
  }
  return root;
}

/** Runs the contract in bash with the image's env (paths relative to the root made absolute) and prints what it found. */
function findIn(root: string, env: Record<string, string>): Promise<Found> {
  if (bash === undefined) throw new Error('no bash on PATH');
  const script = `set -euo pipefail\n${imageContractScript(layoutsUnder(root))}\nprintf '%s\\n' "$java_bin" "$zookeeper_classpath" "$zookeeper_found"\n`;
  const rooted = (value: string): string => value.replace(/(^|:)\//g, `$1${root}/`);
  const imageEnv = Object.fromEntries(Object.entries({ PATH: '/usr/bin', ...env }).map(([name, value]) => [name, rooted(value)]));
  return new Promise((resolve) => {
    // --norc: Node's pipes are sockets, which bash takes for a remote shell's and then reads ~/.bashrc.
    execFile(bash, ['--norc', '-c', script], { env: { ...imageEnv, ZK_DATA_DIR: join(root, 'data') } }, (error, stdout, stderr) => {
      const [java = '', classpath = '', foundBy = ''] = stdout.split('\n');
      resolve({ exitCode: typeof error?.code === 'number' ? error.code : 0, java, classpath, foundBy, stderr });
    });
  });
}

const OFFICIAL_IMAGE = [
  'opt/java/openjdk/bin/java',
  'apache-zookeeper-3.9.4-bin/bin/zkServer.sh',
  'apache-zookeeper-3.9.4-bin/lib/zookeeper-3.9.4.jar',
  'apache-zookeeper-3.9.4-bin/lib/zookeeper-jute-3.9.4.jar',
  'apache-zookeeper-3.9.4-bin/lib/logback-classic-1.2.13.jar',
  // The image moves the release's configuration to /conf and leaves the directory empty.
  'apache-zookeeper-3.9.4-bin/conf/',
  'conf/logback.xml',
];
/** What the official image's ENV sets (zookeeper:3.9.4, on eclipse-temurin:17-jre). */
const OFFICIAL_ENV = {
  PATH: '/opt/java/openjdk/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:/apache-zookeeper-3.9.4-bin/bin',
  JAVA_HOME: '/opt/java/openjdk',
  ZOOCFGDIR: '/conf',
};

const DEBIAN_PACKAGE = [
  'usr/bin/java',
  'usr/share/zookeeper/bin/zkServer.sh',
  'usr/share/java/zookeeper.jar',
  'usr/share/java/slf4j-simple.jar',
  'usr/share/java/netty-codec.jar',
  'usr/share/java/netty-resolver.jar',
  'etc/zookeeper/conf/log4j.properties',
];

describe('the image contract of start.sh', () => {
  it('is what start.sh runs, with the well-known layouts at the root', () => {
    expect(START_SCRIPT).toContain(imageContractScript(ZOOKEEPER_IMAGE_LAYOUTS));
  });

  it("starts the official image from its release directory on PATH, with its /conf (ZOOCFGDIR) and JAVA_HOME's java on PATH", async () => {
    const root = await image(OFFICIAL_IMAGE);

    const found = await findIn(root, OFFICIAL_ENV);

    expect(found).toEqual({
      exitCode: 0,
      java: `${root}/opt/java/openjdk/bin/java`,
      classpath: `${root}/conf:${root}/apache-zookeeper-3.9.4-bin/lib/*`,
      foundBy: `the release directory of ${root}/apache-zookeeper-3.9.4-bin/bin/zkServer.sh on PATH`,
      stderr: '',
    });
  });

  it('finds the official layout by its directory, with /conf, in an image that reset PATH and ZOOCFGDIR', async () => {
    const root = await image(OFFICIAL_IMAGE);

    const found = await findIn(root, { PATH: '/usr/bin', JAVA_HOME: '/opt/java/openjdk' });

    expect(found).toEqual({
      exitCode: 0,
      java: `${root}/opt/java/openjdk/bin/java`,
      classpath: `${root}/conf:${root}/apache-zookeeper-3.9.4-bin/lib/*`,
      foundBy: `the release directory ${root}/apache-zookeeper-3.9.4-bin`,
      stderr: '',
    });
  });

  it("starts Debian's zookeeper package from its jars, with the logging binding and Netty's TLS jars, then /etc/zookeeper/conf", async () => {
    const root = await image(DEBIAN_PACKAGE);

    // Its zkServer.sh is not on PATH, and a ZOOKEEPER_HOME without lib/ is passed over.
    const found = await findIn(root, { ZOOKEEPER_HOME: '/usr/share/zookeeper' });

    expect(found).toEqual({
      exitCode: 0,
      java: `${root}/usr/bin/java`,
      classpath: [
        `${root}/usr/share/java/zookeeper.jar`,
        `${root}/usr/share/java/slf4j-simple.jar`,
        `${root}/usr/share/java/netty-codec.jar`,
        `${root}/usr/share/java/netty-resolver.jar`,
        `${root}/etc/zookeeper/conf`,
      ].join(':'),
      foundBy: "Debian's zookeeper package",
      stderr: '',
    });
  });

  it("takes ZOOKEEPER_CLASSPATH as it is, before anything the image holds (the bed's node agent sets Debian's)", async () => {
    const root = await image(OFFICIAL_IMAGE);

    const found = await findIn(root, { ...OFFICIAL_ENV, ZOOKEEPER_CLASSPATH: '/opt/zk/jars/*:/opt/zk/etc' });

    expect([found.exitCode, found.classpath, found.foundBy]).toEqual([0, `${root}/opt/zk/jars/*:${root}/opt/zk/etc`, 'ZOOKEEPER_CLASSPATH']);
  });

  it('starts a release unpacked anywhere, named by ZOOKEEPER_HOME, with its own conf/ and java from JAVA_HOME alone', async () => {
    const root = await image(['jdk/bin/java', 'opt/zookeeper/lib/zookeeper-3.8.6.jar', 'opt/zookeeper/conf/logback.xml']);

    const found = await findIn(root, { ZOOKEEPER_HOME: '/opt/zookeeper', JAVA_HOME: '/jdk' });

    expect(found).toEqual({
      exitCode: 0,
      java: `${root}/jdk/bin/java`,
      classpath: `${root}/opt/zookeeper/conf:${root}/opt/zookeeper/lib/*`,
      foundBy: `ZOOKEEPER_HOME ${root}/opt/zookeeper`,
      stderr: '',
    });
  });

  it('fails with one line naming every place it looked when the image holds no ZooKeeper', async () => {
    const root = await image(['usr/bin/java', 'usr/share/zookeeper/bin/zkServer.sh']);

    const found = await findIn(root, { ZOOKEEPER_HOME: '/usr/share/zookeeper' });

    expect([found.exitCode, found.stderr]).toEqual([
      1,
      `zk-oam start: no ZooKeeper in this image: ZOOKEEPER_CLASSPATH is not set, no lib/*.jar in ZOOKEEPER_HOME (${root}/usr/share/zookeeper), ` +
        `beside a bin/zkServer.sh on PATH (${root}/usr/bin) or in ${root}/apache-zookeeper-*-bin, ` +
        `and no ${root}/usr/share/java/zookeeper.jar (Debian's zookeeper package)\n`,
    ]);
  });

  it('fails with one line when the image has no java, on PATH or in JAVA_HOME', async () => {
    const root = await image(OFFICIAL_IMAGE.filter((path) => !path.endsWith('/java')));

    const found = await findIn(root, OFFICIAL_ENV);

    expect([found.exitCode, found.stderr]).toEqual([
      1,
      `zk-oam start: no java in this image: none on PATH (${root}${OFFICIAL_ENV.PATH.replaceAll(':/', `:${root}/`)}) ` +
        `and no $JAVA_HOME/bin/java (JAVA_HOME=${root}/opt/java/openjdk)\n`,
    ]);
  });

  it('fails with one line when the data directory is missing', async () => {
    const root = await image(OFFICIAL_IMAGE);
    await rm(join(root, 'data'), { recursive: true });

    const found = await findIn(root, OFFICIAL_ENV);

    expect([found.exitCode, found.stderr]).toEqual([
      1,
      `zk-oam start: the data directory ${root}/data (the member's volume) is missing or not writable by uid ${String(process.geteuid?.())}\n`,
    ]);
  });
});
